import Foundation
import LeamojiClassifier
import LeamojiTestSupport
import Testing

/// A model's declared recipe (`Lab/recipes/leamoji-<version>.recipe`): plain `KEY="value"` lines
/// that bash sources (`Lab/scripts/train-default-model.sh`, `regenerate-assets.sh`) and that
/// say what the shipped model is; its card must say the same.
@Suite("the shipped model's declared recipe")
struct RecipeFileTests {
  /// The `KEY="value"` pairs of a recipe's text; a line of any other form is an error.
  static func values(of text: String) throws -> [String: String] {
    var values: [String: String] = [:]
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    where !line.isEmpty && !line.hasPrefix("#") {
      guard let equals = line.firstIndex(of: "="), line.hasSuffix("\""),
        line[line.index(after: equals)...].hasPrefix("\"")
      else {
        throw HarnessError("line \(index + 1) is not KEY=\"value\": \(line)")
      }
      let key = String(line[..<equals])
      let value = line[line.index(equals, offsetBy: 2)..<line.index(before: line.endIndex)]
      guard key.allSatisfy({ $0.isUppercase || $0 == "_" }), !value.contains("\""),
        !value.contains("$"), !value.contains("`"), !value.contains("\\")
      else {
        throw HarnessError("line \(index + 1): a plain upper-case key and a literal value")
      }
      values[key] = String(value)
    }
    return values
  }

  @Test("the shipped model's card is what its recipe declares")
  func cardMatchesRecipe() throws {
    let card = try Classifier(contentsOf: Repository.url("Models/leamoji.safetensors").path).card
    let version = try #require(card.modelVersion)
    let file = Repository.url("Lab/recipes/leamoji-\(version).recipe")
    let recipe = try Self.values(of: String(contentsOf: file, encoding: .utf8))
    #expect(recipe["VERSION"] == version)
    #expect(
      card.created?.hasPrefix(try #require(recipe["CREATED"])) == true, "\(card.created ?? "")")
    #expect(recipe["AUTHOR"] == card.author && recipe["LICENSE"] == card.license)
    #expect(recipe["DESCRIPTION"] == card.description)
    let training = try #require(card.training)
    #expect(recipe["EPOCHS"] == String(training.epochs) && recipe["SEED"] == String(training.seed))
    #expect(training.experts?.count == 2)
    let backbone =
      "efficientnet-\(recipe["BACKBONE_VARIANT"] ?? "?")-\(recipe["BACKBONE_SIZE"] ?? "?")"
    #expect(
      training.backbone?.hasPrefix(backbone + ".safetensors") == true, "\(training.backbone ?? "")")
    for key in ["REAL_MANIFEST", "VARIED", "CLASSIC", "PRIMARY_CLASSIC", "PRIMARY_OPTIONS"] {
      #expect(recipe[key]?.isEmpty == false, "\(key)")
    }
  }

  @Test("a recipe line in another form is refused")
  func otherFormsRefused() {
    for text in ["VERSION=2.6", "version=\"2.6\"", "A=\"$(rm -rf x)\"", "A=\"x\" # note"] {
      #expect(throws: HarnessError.self, "\(text)") { try Self.values(of: text) }
    }
    #expect((try? Self.values(of: "# c\n\nA=\"b c\"")) == ["A": "b c"])
  }
}

import ArgumentParser
import FoundationEssentials
import LeamojiAnalysis
import LeamojiCore
import LeamojiScenes

extension SceneSet: ExpressibleByArgument {}

#if canImport(Glibc)
  import Glibc
#endif

/// `leamoji-lab scenes` (and `leamoji scenes`, its hidden alias of before the move): the
/// deterministic mood-scene generator behind the default model's
/// training data and the sample videos (see Lab/scripts/regenerate-assets.sh).
public struct Scenes: ParsableCommand {
  public init() {}

  public static let configuration = CommandConfiguration(
    abstract:
      "Generate mood scenes: a labelled training set, or raw frames of a clip with known moods.",
    subcommands: [Dataset.self, Clip.self]
  )

  public struct Dataset: ParsableCommand, Sendable {
    public init() {}

    public static let configuration = CommandConfiguration(
      abstract: "Write 'Training Data/' and 'Testing Data/' folders of generated PNG scenes.",
      discussion: """
        Writes <out>/Training Data/{Happy,Neutral,Scary}/ and <out>/Testing Data/... . Training \
        and testing scenes never coincide. The same --seed gives the same images. --set varied \
        (the default) draws scenes where lighting is not the answer: every mood in dark, dim, \
        bright, colourful and grey looks, told apart by content (faces, creatures, fire or \
        fireworks). --set classic draws the first generator's scenes, where each mood has its \
        own lighting; the shipped model was trained on those (Lab/scripts/regenerate-assets.sh). \
        The example makes a small set.

        --photos DIR mixes real photographs (every image file in DIR) into the training half, \
        so that a model does not take the fine detail of real footage for a mood: \
        --photo-blend of each mood's scenes are laid over a photo crop, and neutral gets \
        --photo-plain times its count of plain photo crops (photo-NNNNN.png). Testing \
        scenes stay unmixed. Use photos with no mood cue in them (landscapes, objects, \
        textures, animals at rest), and never the footage you check the model on.

        Example:
          leamoji-lab scenes dataset --out . --train-per-class 100 --test-per-class 20
        """
    )

    @Option(help: "Folder to create the two data folders in.", completion: .directory)
    var out = "."

    @Option(help: "Training images per mood.")
    var trainPerClass = 1000

    @Option(help: "Testing images per mood.")
    var testPerClass = 200

    @Option(help: "Image size in pixels (square).")
    var size = 64

    @Option(help: "Seed of the whole data set.")
    var seed: UInt64 = 2018

    @Option(help: "Scene set: varied (lighting says nothing about the mood) or classic.")
    var set: SceneSet = .default

    @Option(help: "Folder of photographs to mix into the training scenes.", completion: .directory)
    var photos: String?

    @Option(help: "With --photos: share of each mood's training scenes laid over a photo.")
    var photoBlend = 0.5

    @Option(help: "With --photos: plain photo crops added to neutral, per neutral scene.")
    var photoPlain = 0.5

    public func validate() throws {
      guard trainPerClass >= 1, trainPerClass <= 100_000, testPerClass >= 0, testPerClass <= 100_000
      else {
        throw ValidationError("image counts must be 1 to 100000 (testing may be 0)")
      }
      guard size >= 8, size <= 1024 else { throw ValidationError("--size must be 8 to 1024") }
      guard (0...1).contains(photoBlend), (0...4).contains(photoPlain) else {
        throw ValidationError("--photo-blend must be 0 to 1 and --photo-plain 0 to 4")
      }
    }

    /// The photographs of --photos, decoded in file-name order (nil without --photos).
    func loadPhotos() throws -> PhotoMix? {
      guard let photos else { return nil }
      let names: [String]
      do {
        names = try FolderListing.visibleFileNames(in: photos)
      } catch {
        throw CommandFailure("\(photos): not a readable folder of photos", status: .noInput)
      }
      var images: [RGBImage] = []
      for name in names {
        let path = PathText.appending(name, to: photos)
        do {
          images.append(try ImageFiles.decode(path: path, size: nil))
        } catch {
          throw CommandFailure(error)
        }
      }
      guard !images.isEmpty else {
        throw CommandFailure("\(photos): no photos in the folder", status: .noInput)
      }
      return PhotoMix(photos: images, blendShare: photoBlend, plainShare: photoPlain)
    }

    public func run() throws {
      let pixelSize = PixelSize(width: size, height: size)
      let mix = try loadPhotos()
      for (split, perClass) in [(DatasetSplit.train, trainPerClass), (.test, testPerClass)]
      where perClass > 0 {
        let items = datasetItems(perClass: perClass, split: split, seed: seed)
        let root = PathText.appending(split.folderName, to: out)
        for folder in Set(items.map(\.folderName)) {
          let path = PathText.appending(folder, to: root)
          do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
          } catch {
            throw CommandFailure(
              "\(path): cannot create the folder (\(ErrorText.describe(error)))",
              status: .cannotWrite)
          }
        }
        // Every file of the split: its folder, its name, and how to draw it.
        typealias Job = (folder: String, name: String, image: @Sendable () -> RGBImage)
        let scenes: [Job] = items.map { item in
          (
            item.folderName, item.fileName,
            {
              let scene = makeScene(mood: item.mood, seed: item.seed, size: pixelSize, set: set)
              guard split == .train, let mix else { return scene }
              return mix.blended(scene, seed: item.seed)
            }
          )
        }
        let plainCount = split == .train ? mix?.plainCount(perClass: perClass) ?? 0 : 0
        let photos: [Job] = (0..<plainCount).compactMap { i in
          mix.map { mix in
            (
              PhotoMix.plainFolderName, PhotoMix.plainFileName(index: i),
              { [seed] in mix.plain(index: i, seed: seed, size: pixelSize) }
            )
          }
        }
        let jobs = scenes + photos
        let progress = ProgressBar(label: split.folderName, total: jobs.count)
        let failure = Locked<String?>(nil)
        JobPool.run(jobs.count) { i in
          let job = jobs[i]
          let path = PathText.appending(job.name, to: PathText.appending(job.folder, to: root))
          do {
            try DurableFile(path).write(try ImageFiles.png(job.image()))
          } catch {
            failure.withValue { $0 = $0 ?? "\(error)" }
          }
          progress.update(i + 1)
        }
        progress.finish()
        if let first = failure.withValue({ $0 }) {
          throw CommandFailure(first, status: .cannotWrite)
        }
        let photoNote = plainCount > 0 ? " and \(plainCount) photos" : ""
        Console.print("Wrote \(items.count) scenes\(photoNote) to \(root)")
      }
    }
  }

  public struct Clip: ParsableCommand, Sendable {
    public init() {}

    public static let configuration = CommandConfiguration(
      abstract:
        "Render a clip of mood scenes as raw RGB24 frames on stdout (pipe it into an encoder).",
      discussion: """
        The script lists shots as mood:seconds. --truth writes the ground truth: the mood on \
        screen at every whole second, as JSON.

        Example:
          leamoji-lab scenes clip --script happy:2,neutral:2,scary:2 --size 160x90 \\
            --truth clip.truth.json | ffmpeg -f rawvideo -pix_fmt rgb24 \\
            -s 160x90 -r 25 -i - -c:v libx264 clip.mp4
        """
    )

    @Option(help: "Shots as mood:seconds, comma-separated (moods: happy, neutral, scary).")
    var script: String

    @Option(help: "Frame size as WxH.")
    var size = "640x360"

    @Option(help: "Frames per second.")
    var fps = 25

    @Option(help: "Seed of the clip.")
    var seed: UInt64 = 1

    @Option(help: "Write the per-second ground truth (JSON) to this file.", completion: .file())
    var truth: String?

    func parsedScript() throws -> [SceneClip.Segment] {
      try script.split(separator: ",").map { part in
        let fields = part.split(separator: ":").map { $0.trimmingWhitespace }
        guard fields.count == 2, let mood = Mood(rawValue: fields[0].lowercased()),
          let seconds = Double(fields[1]),
          seconds > 0, seconds <= 3600
        else {
          throw ValidationError(
            "--script takes mood:seconds pairs such as happy:8,scary:5 (got '\(part)')")
        }
        return SceneClip.Segment(mood, seconds: seconds)
      }
    }

    public func validate() throws {
      guard try !parsedScript().isEmpty else { throw ValidationError("--script is empty") }
      guard PixelSize(parsing: size) != nil else {
        throw ValidationError("--size must look like 640x360")
      }
      guard fps >= 1, fps <= 120 else { throw ValidationError("--fps must be 1 to 120") }
    }

    struct Truth: Encodable {
      let fps: Int
      let seed: UInt64
      let size: String
      let duration: Double
      let script: [[String: String]]
      let labels: [String]
    }

    public func run() throws {
      guard isatty(STDOUT_FILENO) == 0 else {
        throw CommandFailure(
          "stdout is a terminal; pipe the raw frames into an encoder (see --help)", status: .usage)
      }
      let segments = try parsedScript()
      let clip = SceneClip(script: segments, seed: seed, size: PixelSize(parsing: size)!, fps: fps)
      if let truth {
        let record = Truth(
          fps: fps, seed: seed, size: size, duration: clip.duration,
          script: segments.map { ["mood": $0.mood.rawValue, "seconds": String($0.seconds)] },
          labels: clip.labelsPerSecond.map(\.rawValue))
        do {
          try DurableFile(truth).write(Array((jsonText(record, pretty: true) + "\n").utf8))
        } catch {
          throw CommandFailure(error)
        }
      }
      let progress = ProgressBar(label: "frames", total: clip.frameCount)
      // Render a few frames ahead in parallel, write them in order.
      let batch = 8
      var start = 0
      while start < clip.frameCount {
        let count = min(batch, clip.frameCount - start)
        let frames = Locked([RGBImage?](repeating: nil, count: count))
        let first = start
        JobPool.run(count) { i in
          let image = clip.frame(at: first + i)
          frames.withValue { $0[i] = image }
        }
        for i in 0..<count {
          if let code = FileDescriptor.writeAll(
            frames.withValue { $0[i]! }.pixels, to: STDOUT_FILENO)
          {
            throw CommandFailure(
              "stdout: write failed (\(String(cString: strerror(code))))", status: .cannotWrite)
          }
        }
        start += count
        progress.update(start)
      }
      progress.finish()
    }
  }
}

import LeamojiCore

/// The heads-up in words, one wording for `timeline`, `list` and the report's film page, so a
/// parent reads the same sentence everywhere. Plain text (no markup, no colour); the callers
/// make it safe for where it goes.
///
/// Honest by construction: level 0 says that nothing was found, never that the film is safe;
/// a film without a timeline says nothing is known; a timeline from another model says so.
public enum HeadsUpText {
  /// What level 0 means, said wherever level 0 is shown.
  public static let nothingFound =
    "no scary scene found by the model (this is not a promise that the film is safe)"

  /// What a film without a timeline shows instead of a level.
  public static let notAnalysed =
    "not analysed yet, so nothing is known about it; run `leamoji analyze` on its video"

  /// The headline: `Heads-up: level 3 of 5 (…reasons…)`, or level 0's and no timeline's words.
  public static func headline(_ headsUp: FilmHeadsUp) -> String {
    "Heads-up: " + level(headsUp)
  }

  /// `level 3 of 5 (…reasons…)`, `level 0 of 5 — no scary scene found…`, `none — not analysed…`.
  public static func level(_ headsUp: FilmHeadsUp) -> String {
    guard let level = headsUp.level else { return "none — " + notAnalysed }
    if level == 0 { return "level 0 of 5 — " + nothingFound }
    let reasons = headsUp.levelReasons
    return "level \(level) of 5" + (reasons.isEmpty ? "" : " (\(reasons.joined(separator: "; ")))")
  }

  /// The facts below the headline, then the model's sentence when the timeline is not the
  /// current model's.
  public static func details(_ headsUp: FilmHeadsUp) -> [String] {
    facts(headsUp) + (headsUp.model?.sentence.map { [$0] } ?? [])
  }

  /// The facts below the headline, one sentence each: none for a film without a timeline or
  /// at level 0 (the headline says it all).
  public static func facts(_ headsUp: FilmHeadsUp) -> [String] {
    var lines: [String] = []
    if headsUp.analysed && headsUp.level != 0 {
      let count = headsUp.scaryScenes
      var scenes =
        count == 0
        ? "no scary scene"
        : "\(count) scary scene\(count == 1 ? "" : "s"), \(TimeText.duration(headsUp.scarySeconds)) "
          + "in all (\(percent(headsUp.scaryShare)) of the film)"
      let sudden = headsUp.suddenScares
      scenes += sudden == 0 ? "" : "; \(sudden) sudden scare\(sudden == 1 ? "" : "s") ⚡"
      lines.append(scenes)
      if let first = headsUp.firstScene, let longest = headsUp.longestScene {
        lines.append(
          first == longest
            ? "first and longest: \(span(first))"
            : "first: \(span(first)); longest: \(span(longest))")
      }
      if let moment = headsUp.strongest { lines.append(strongest(moment)) }
    }
    return lines
  }

  /// `heads-up 3/5` for a one-line listing, with `(older model 2.1)` and the like when the
  /// timeline is not the current model's.
  public static func short(_ headsUp: FilmHeadsUp) -> String {
    var text = headsUp.level.map { "heads-up \($0)/5" } ?? "heads-up none (not analysed)"
    switch headsUp.model?.state {
    case .older?: text += " (older model \(headsUp.model?.version ?? "?"))"
    case .other?: text += " (another model)"
    case .unrecorded? where headsUp.analysed: text += " (model not recorded)"
    case .unchecked?: text += " (model not checked)"
    default: break
    }
    return text
  }

  /// `0:14–0:24 (10 s)`.
  static func span(_ scene: FilmHeadsUp.Scene) -> String {
    "\(TimeText.clock(scene.start))–\(TimeText.clock(scene.end)) "
      + "(\(TimeText.duration(scene.seconds)))"
  }

  /// `strongest moment: 0:17, p(scary) 0.97, fired by picture + sound`.
  static func strongest(_ moment: FilmHeadsUp.Moment) -> String {
    let at = TimeText.clock(moment.second)
    let fired =
      moment.firedBy.isEmpty ? "" : ", fired by " + moment.firedBy.joined(separator: " + ")
    let p = moment.pScary.map { CFormat.string("%.2f", $0) } ?? "?"
    switch moment.measure {
    case .second:
      return "strongest moment: \(at), p(scary) \(p)\(fired)"
    case .sceneMean:
      return "strongest: the scene at \(at), mean p(scary) \(p)\(fired) (per-second scores "
        + "are not stored; `leamoji analyze --frames` keeps them)"
    case .none:
      let what = moment.firedBy == [Signal.sudden.rawValue] ? "a sudden scare" : "a scary scene"
      return "strongest: \(what) at \(at) (no probability recorded)"
    }
  }

  /// `33.3 %`.
  static func percent(_ share: Double) -> String { CFormat.string("%.1f %%", share * 100) }
}

/// Times as the heads-up writes them.
public enum TimeText {
  /// `m:ss`, or `h:mm:ss` from an hour on (seconds rounded down; negative and non-finite as 0).
  public static func clock(_ seconds: Double) -> String {
    let total = seconds.isFinite ? max(0, Int(min(seconds, 1e12).rounded(.down))) : 0
    let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
    let two = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
    return hours > 0 ? "\(hours):\(two(minutes)):\(two(secs))" : "\(minutes):\(two(secs))"
  }

  /// `10 s`, `2.5 s`, `1 min 30 s`, `1 h 2 min` (as `list` writes durations, with hours).
  public static func duration(_ seconds: Double) -> String {
    guard seconds.isFinite, abs(seconds) < 1e12 else { return "? s" }
    let whole = Int(seconds.rounded())
    if whole >= 3600 { return "\(whole / 3600) h \(whole / 60 % 60) min" }
    if seconds >= 60 { return "\(whole / 60) min \(whole % 60) s" }
    return seconds == seconds.rounded()
      ? "\(Int(seconds)) s" : CFormat.string("%.1f s", seconds)
  }
}

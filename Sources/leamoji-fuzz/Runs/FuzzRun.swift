import Foundation

/// One invocation of the fuzzer: finds leamoji and the seeds, prepares them in a temporary
/// folder, runs the campaign, shrinks what failed if asked, prints the summary and chooses the
/// exit status.
struct FuzzRun {
  let options: LeamojiFuzz

  func run() throws(FuzzError) -> Int32 {
    let executableFolder = Self.executableFolder()
    let leamoji = options.leamoji.map(Self.absolute) ?? executableFolder + "/leamoji"
    guard access(leamoji, X_OK) == 0 else {
      throw FuzzError(
        "\(leamoji): no leamoji binary there (build it, or give --leamoji)", status: 66)
    }
    let root: String
    if let given = options.root {
      root = Self.absolute(given)
    } else {
      root = try Self.findRoot(from: executableFolder)
    }
    limitChildren(memoryMB: options.memoryLimit)
    let work = try Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: work) }
    let seeds = try SeedSet(
      root: root, clipSeconds: options.clipSeconds, leamoji: leamoji, folder: work)
    let sweep = options.sweep ? Sweep(seeds: seeds, targets: options.targets) : nil
    let maker = CaseMaker(
      seeds: seeds, targets: options.targets, runSeed: options.seed, sweep: sweep)
    let targetList = options.targets.map(\.rawValue).joined(separator: ",")
    var replay = "--seed \(options.seed) --targets \(targetList)"
    if options.clipSeconds != LeamojiFuzz.defaultClipSeconds {
      replay += " --clip \(options.clipSeconds)"
    }
    if let root = options.root { replay += " --root \(Keeper.quoted(root))" }
    if options.sweep { replay += " --sweep" }
    let keeper = Keeper(
      folder: Self.absolute(options.keep), runSeed: options.seed, replayArguments: replay,
      seeds: seeds)
    let indices = options.only ?? Array(0..<(sweep?.items.count ?? options.cases))
    Campaign.printError(
      "leamoji-fuzz: \(indices.count) cases of \(options.targets.map(\.rawValue).joined(separator: ",")), seed \(options.seed), "
        + "timeout \(options.timeout) s, \(options.jobs) jobs, \(leamoji)")
    let start = Clock.now()
    let campaign = Campaign(
      maker: maker, leamoji: leamoji, workFolder: work, timeout: options.timeout,
      jobs: options.jobs, keeper: keeper,
      verbose: options.verbose || options.only != nil)
    let tally = try campaign.run(indices)
    let seconds = Clock.now() - start
    print(tally.summary(seed: options.seed, seconds: seconds))
    if options.shrink {
      let runner = CaseRunner(
        leamoji: leamoji, folder: work + "/shrink", seeds: seeds, timeout: options.timeout)
      try? FileManager.default.createDirectory(
        atPath: runner.folder, withIntermediateDirectories: true)
      let crashesAndHangs = tally.findings.filter { $0.outcome == .crash || $0.outcome == .hang }
      for finding in crashesAndHangs + tally.findings.filter({ $0.outcome == .unclear }).prefix(10)
      {
        try shrink(finding, maker: maker, runner: runner)
      }
    }
    let failed = tally[.crash] + tally[.hang] + (options.strict ? tally[.unclear] : 0)
    return failed > 0 ? 1 : 0
  }

  /// Shrinks a kept input and saves it beside the original as `.min.<ext>`.
  private func shrink(_ finding: Finding, maker: CaseMaker, runner: CaseRunner) throws(FuzzError) {
    let fuzzCase = maker.make(finding.index)
    let original = try runner.run(
      fuzzCase.bytes, target: fuzzCase.target, command: fuzzCase.command)
    let signature = original.verdict.signature
    guard original.verdict.outcome == finding.outcome else {
      return print(
        "  case \(finding.index): not reproduced when run alone (\(original.verdict.reason)); not shrunk"
      )
    }
    let shrinker = Shrinker(
      budget: [.hang: 40, .crash: 400][finding.outcome] ?? 150, minimumChunk: 4
    ) { bytes throws(FuzzError) in
      try runner.run(bytes, target: fuzzCase.target, command: fuzzCase.command).verdict.signature
        == signature
    }
    let (bytes, runs) = try shrinker.shrink(fuzzCase.bytes)
    let ext = "." + fuzzCase.target.fileExtension
    let path = String(finding.path.dropLast(ext.count)) + ".min" + ext
    try SeedSet.write(bytes, to: path)
    print(
      "  case \(finding.index): shrunk \(fuzzCase.bytes.count) -> \(bytes.count) bytes in \(runs) runs: \(path)"
    )
  }

  /// The folder of the running executable.
  static func executableFolder() -> String {
    let path =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    return (path as NSString).deletingLastPathComponent
  }

  /// The first folder from `start` upwards (else the current folder) with the sample videos and the model.
  static func findRoot(from start: String) throws(FuzzError) -> String {
    func isRoot(_ folder: String) -> Bool {
      FileManager.default.fileExists(atPath: folder + "/Models/leamoji.safetensors")
        && FileManager.default.fileExists(atPath: folder + "/SampleVideos")
    }
    var folder = start
    while !folder.isEmpty, folder != "/" {
      if isRoot(folder) { return folder }
      folder = (folder as NSString).deletingLastPathComponent
    }
    let current = FileManager.default.currentDirectoryPath
    if isRoot(current) { return current }
    throw FuzzError(
      "no folder with SampleVideos/ and Models/leamoji.safetensors above \(start) or here (give --root)",
      status: 66)
  }

  /// `path` made absolute against the current folder.
  static func absolute(_ path: String) -> String {
    path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
  }

  static func temporaryFolder() throws(FuzzError) -> String {
    let temporary =
      NSTemporaryDirectory().hasSuffix("/") ? NSTemporaryDirectory() : NSTemporaryDirectory() + "/"
    var template = Array((temporary + "leamoji-fuzz-XXXXXX").utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw FuzzError("cannot create a temporary folder", status: 73)
    }
    return String(cString: made)
  }
}

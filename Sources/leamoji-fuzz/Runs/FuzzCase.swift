/// One fuzz case: a mutant of one seed and the command to run on it.
struct FuzzCase {
  let index: Int
  let target: Target
  let command: Command
  let seedName: String
  let bytes: [UInt8]
  /// What was done to the seed, in order.
  let mutations: [String]

  /// The file name the mutant is kept under, e.g. `crash-video-analyze-seed1-case17.mp4`.
  func keptName(_ outcome: Outcome, runSeed: UInt64) -> String {
    "\(outcome.rawValue)-\(target.rawValue)-\(command.rawValue)-seed\(runSeed)-case\(index).\(target.fileExtension)"
  }
}

/// Makes case `i` of a run, the same on every machine: target `i mod targets.count`, commands
/// of the target in turn, then a seed and 1 to 8 stacked mutations drawn from a generator
/// seeded by (run seed, i); most PNG mutants get their chunk CRCs repaired afterwards. With
/// `--sweep`, case `i` is the sweep's instead.
struct CaseMaker {
  let seeds: SeedSet
  let targets: [Target]
  let runSeed: UInt64
  /// The deterministic stage, which then makes every case instead.
  var sweep: Sweep?

  func make(_ index: Int) -> FuzzCase {
    if let sweep { return sweep.make(index) }
    var rng = SeededRandom(runSeed: runSeed, caseIndex: index)
    let target = targets[index % targets.count]
    let commands = target.commands
    let command = commands[(index / targets.count) % commands.count]
    let seed = rng.pick(seeds.seeds(for: target))
    var bytes = seed.bytes
    var mutations: [String] = []
    for _ in 0..<rng.pick([1, 1, 1, 1, 2, 2, 3, 4, 6, 8]) {
      if target == .model, rng.chance(75) {
        mutations.append(ModelMutator().mutate(&bytes, &rng))
      } else {
        mutations.append(ByteMutator(map: seed.map).mutate(&bytes, &rng))
      }
    }
    if target == .image, rng.chance(70) {
      mutations.append("repair the CRC of \(PNGChecksums.repair(&bytes)) chunk(s)")
    }
    return FuzzCase(
      index: index, target: target, command: command, seedName: seed.name, bytes: bytes,
      mutations: mutations)
  }
}

import Foundation

// leamoji-fuzz: the mutation fuzzer of `make fuzz` / `make fuzz-short` (see Options.usage).

do {
  let options = try Options(parsing: Array(CommandLine.arguments.dropFirst()))
  if options.help {
    print(Options.usage)
    exit(0)
  }
  exit(try FuzzRun(options: options).run())
} catch let error as UsageError {
  Campaign.printError("leamoji-fuzz: \(error) (see leamoji-fuzz --help)")
  exit(64)
} catch let error as FuzzError {
  Campaign.printError("leamoji-fuzz: \(error)")
  exit(error.status)
} catch {
  Campaign.printError("leamoji-fuzz: \(error)")
  exit(1)
}

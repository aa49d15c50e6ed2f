// Replaced by the fuzzer proper.
print("leamoji-fuzz: not built yet")

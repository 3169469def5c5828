#if canImport(Glibc)
  import Glibc
#endif

/// The signature of a fuzz target's test function: the input's bytes, and 0.
public typealias FuzzTest = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

// libFuzzer's entry point for programs with their own `main`: it parses the
// libFuzzer flags in argv and runs `test` on each input.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ test: FuzzTest
) -> CInt

/// Runs libFuzzer with the process's arguments and `test`, and exits with its status.
public func runFuzzer(_ test: FuzzTest) -> Never {
  var argc = CommandLine.argc
  var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
  exit(LLVMFuzzerRunDriver(&argc, &argv, test))
}

/// The input as an array.
public func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
  guard let data, size > 0 else { return [] }
  return [UInt8](UnsafeBufferPointer(start: data, count: size))
}

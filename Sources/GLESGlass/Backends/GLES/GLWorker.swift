import Foundation

/// The GL thread: one dedicated thread on which a GL context is current and every
/// GL object is made, used and deleted. Callers hand it work and wait.
final class GLWorker: @unchecked Sendable {
  private let condition = NSCondition()
  private var job: (() -> Void)?
  private var stopping = false
  private var finalJob: (@Sendable () -> Void)?
  private let callers = NSLock()
  /// Set once, before the thread starts; never changed.
  private var thread: Thread?

  /// Starts the thread.
  init(name: String) {
    // While its loop runs, the thread holds the worker (`self?.loop()` keeps it
    // for the call); it does not keep it alive beyond.
    let thread = Thread { [weak self] in self?.loop() }
    thread.name = name
    thread.stackSize = 8 << 20
    self.thread = thread
    thread.start()
  }

  /// Runs `body` on the GL thread and returns its result; callers take turns.
  /// Throws once the worker has been stopped.
  func sync<T>(_ body: () throws -> T) throws -> T {
    if Thread.current === thread { return try body() }
    callers.lock()
    defer { callers.unlock() }
    return try withoutActuallyEscaping(body) { body in
      let box = ResultBox<T>()
      box.body = body
      let done = DispatchSemaphore(value: 0)
      condition.lock()
      guard !stopping else {
        condition.unlock()
        throw GlassError(.renderFailure, "the GPU backend was closed; make a new Renderer")
      }
      job = {
        box.run()
        done.signal()
      }
      condition.signal()
      condition.unlock()
      done.wait()
      guard let result = box.result else { preconditionFailure("GL job finished without a result") }
      return try result.get()
    }
  }

  /// Ends the thread after the job in hand, running `last` on it first. Later
  /// `sync` calls throw.
  func stop(then last: (@Sendable () -> Void)? = nil) {
    condition.lock()
    stopping = true
    finalJob = last
    condition.signal()
    condition.unlock()
  }

  private func loop() {
    while true {
      condition.lock()
      while job == nil && !stopping { condition.wait() }
      guard let next = job else {
        let last = finalJob
        finalJob = nil
        condition.unlock()
        last?()
        return
      }
      job = nil
      condition.unlock()
      next()
    }
  }
}

/// Carries a job's closure and result across the thread hop. The closure is
/// dropped as soon as it has run, before the caller wakes.
private final class ResultBox<T>: @unchecked Sendable {
  var body: (() throws -> T)?
  var result: Result<T, Error>?

  func run() {
    guard let body else { return }
    result = Result { try body() }
    self.body = nil
  }
}

/// A value moved to the GL thread while its owner waits; never used concurrently.
struct UncheckedSendable<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

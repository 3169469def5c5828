import FuzzDriver
import GLESGlass

// libFuzzer target: scene files. For each input:
// - `Scene(json:)` reads and validates it, or throws a GlassError;
// - a scene it reads, written back (`scene.json`) and read again, is the same
//   scene (the format's promise), and validates again;
// - with a transition, a moment of it validates (or frame(at:) throws a
//   GlassError), and two inputs in three render that moment below;
// - `Renderer.prepare` (validate, fit images, lower, compile, size checks) with a
//   small procedural image for every image the scene names, and a pixel limit of
//   `prepareMaxPixels`, returns a render of the scene's pixel size or throws a
//   GlassError;
// - a prepared render of at most `renderMaxPixels` and `renderMaxBytes` runs on
//   the CPU backend; rendered again by the same renderer from the scene (its
//   pooled images and fitted copies reused; one input in four), it gives the same
//   pixels.
// Anything else (a crash, a trap, a sanitizer report, another error type) is a
// finding. The structure-aware mutator is in SceneMutator.swift.

/// Canvases over this many pixels are refused by `prepare`'s own check (cheaply).
let prepareMaxPixels = 512 * 512

/// Prepared renders up to this size run on the CPU, which keeps executions fast.
let renderMaxPixels = 256 * 256

/// ... and up to this many bytes of intermediate images.
let renderMaxBytes = 64 << 20

/// A small image for a path, its size and look fixed by the path: 1x1 to 7x5 pixels,
/// opaque or not, 8 or 16 bits, so fitting, tiling and alpha paths all run.
func image(for path: String) -> RGBAImage {
  var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  for byte in path.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
  let width = Int(hash % 7) + 1
  let height = Int((hash >> 8) % 5) + 1
  let opaque = (hash >> 16) & 1 == 0
  let image = RGBAImage(width: width, height: height) { x, y in
    let v = UInt8(truncatingIfNeeded: (x * 73 + y * 151) ^ Int(hash >> 24))
    return SIMD4(v, 255 &- v, UInt8(truncatingIfNeeded: x * 40), opaque ? 255 : UInt8(truncatingIfNeeded: y * 60 + 20))
  }
  return (hash >> 17) & 1 == 0 ? image : image.converted(to: .sixteen)
}

/// The test function libFuzzer runs on each input.
let fuzzScene: FuzzTest = { data, size in
  let bytes = FuzzDriver.bytes(data, size)
  var scene: Scene
  do {
    scene = try Scene(json: bytes)
  } catch is GlassError {
    return 0
  } catch {
    fatalError("fuzz-scene: Scene(json:) threw an error that is not a GlassError: \(error)")
  }
  do {
    try scene.validate()
  } catch {
    fatalError("fuzz-scene: a scene Scene(json:) read fails validate(): \(error)")
  }
  // The format's promise: what is read, written back, reads the same.
  let written = scene.json
  do {
    let again = try Scene(json: Array(written.utf8))
    if again != scene {
      fatalError(
        "fuzz-scene: the scene written back reads as another scene\nwritten:\n\(written)\nread back:\n\(again.json)")
    }
  } catch {
    fatalError("fuzz-scene: the scene written back does not read: \(error)\nwritten:\n\(written)")
  }
  // A scene with a transition: a moment of it (the time from the input's length)
  // is a scene that validates, or `frame(at:)` throws a GlassError; two inputs in
  // three go on to render that moment instead of the scene as read.
  if scene.transition != nil {
    do {
      let moment = try scene.frame(at: Double(size % 45) / 60)
      try moment.validate()
      if size % 3 != 0 { scene = moment }
    } catch is GlassError {
    } catch {
      fatalError("fuzz-scene: a moment of the transition threw an error that is not a GlassError: \(error)")
    }
  }
  var decoded: [String: RGBAImage] = [:]
  for (_, path) in scene.imageReferences { decoded[path] = image(for: path) }
  let images = SceneImages(decoded)
  // The depth from the input's length, so both are exercised.
  let depth: RGBAImage.Depth = size % 4 == 0 ? .sixteen : .eight
  var timings = RenderTimings()
  do {
    let prepared = try Renderer.prepare(scene, images: images, depth: depth, maxPixels: prepareMaxPixels)
    if prepared.size != scene.pixelSize {
      fatalError("fuzz-scene: prepared a render of \(prepared.size) for a canvas of \(scene.pixelSize)")
    }
    guard prepared.size.pixelCount <= renderMaxPixels && prepared.workingBytes <= renderMaxBytes else { return 0 }
    // A renderer per input: one kept for the whole run holds its backend in an
    // enum whose spare pointer bits hide it from LeakSanitizer, a false leak.
    let renderer = try Renderer(backend: .cpu)
    let output = try renderer.render(prepared, timings: &timings)
    if output.size != scene.pixelSize || output.depth != depth {
      fatalError("fuzz-scene: rendered \(output.size) at \(output.depth), expected \(scene.pixelSize) at \(depth)")
    }
    // Again, for one input in four at each depth (chosen by its length, so a crash
    // reproduces): a second render costs as much as the first.
    guard size % 8 < 2 else { return 0 }
    let again = try renderer.render(scene, images: images, depth: depth, maxPixels: prepareMaxPixels, timings: &timings)
    if again != output { fatalError("fuzz-scene: the same scene rendered twice by one renderer differs") }
  } catch is GlassError {
    return 0
  } catch {
    fatalError("fuzz-scene: prepare or render threw an error that is not a GlassError: \(error)")
  }
  return 0
}

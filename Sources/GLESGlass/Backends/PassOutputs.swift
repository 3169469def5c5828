import Foundation

/// What one pass of a render wrote, read back right after it ran: the tests'
/// way to compare two backends pass by pass and name the first pass whose
/// outputs part (`PassParityTests`). Not used by renders.
struct PassOutput {
  /// The pass's name, as `GLASS_GPU_TRACE` prints it.
  var name: String
  /// The primitive it ran.
  var primitive: String
  /// The pixels of its output it wrote.
  var rect: PixelRect
  /// The format of its output.
  var format: ImageFormat
  /// The pixels of `rect`, row after row, after the pass: the premultiplied linear
  /// values a `linearHalf` image holds (binary16 values, widened), or the codes of
  /// an encoded one (0 ... 255, or 0 ... 65535).
  var pixels: [SIMD4<Float>]
}

/// A backend whose images can be read in the middle of a render.
protocol PassInspectable: RenderBackend {
  /// `rect` of `image` as `PassOutput.pixels` holds it; called inside `perform`.
  func pixels(of image: Image, rect: PixelRect) throws -> [SIMD4<Float>]
  /// Sets every pixel of a new image to zero, as a new CPU image starts; called
  /// inside `perform`.
  func clear(_ image: Image) throws
}

extension RenderExecutor {
  /// Runs `compiled` on `backend` as `submit` does, but keeps every image until
  /// the end (none is recycled and reused by a later pass) and reads each pass's
  /// output after it runs. The exact copies `submit` places on the CPU are no
  /// pass and are left out. Every image a pass writes starts as zeros on both
  /// backends: a pass may composite over pixels no pass wrote where a later pass
  /// replaces them (the graph's cull leaves out what it covers), and new texture
  /// memory holds whatever the driver left there (NaN, on softpipe).
  static func passOutputs<Backend: PassInspectable>(
    _ compiled: CompiledGraph, on backend: Backend
  ) throws -> [PassOutput] {
    let graph = compiled.graph
    let outputDescriptor = graph[compiled.output].descriptor
    var target = RGBAImage(
      size: outputDescriptor.size, depth: outputDescriptor.format == .srgb16 ? .sixteen : .eight)
    return try backend.perform {
      backend.beginFrame()
      defer { backend.endFrame() }
      var images = [Backend.Image?](repeating: nil, count: graph.resources.count)
      defer {
        for (index, image) in images.enumerated() {
          if let image { backend.recycle(image, graph.resources[index].descriptor) }
        }
      }
      for handle in Set(compiled.passes.flatMap(\.inputs)) {
        if case .source(let source) = graph[handle].role {
          images[handle.index] = try backend.upload(source, as: graph[handle].descriptor)
        }
      }
      let output = try backend.makeOutput(outputDescriptor, target: &target)
      try backend.clear(output)
      images[compiled.output.index] = output
      var outputs: [PassOutput] = []
      for pass in compiled.passes {
        for handle in pass.inputs + [pass.output] where images[handle.index] == nil {
          let image = try backend.acquire(graph[handle].descriptor)
          try backend.clear(image)
          images[handle.index] = image
        }
        let inputs = pass.inputs.map { handle -> Backend.Image in
          guard let image = images[handle.index] else { preconditionFailure("input image made") }
          return image
        }
        guard let output = images[pass.output.index] else { preconditionFailure("output image made") }
        try backend.run(pass, inputs: inputs, output: output)
        outputs.append(
          PassOutput(
            name: pass.name, primitive: pass.primitive.name, rect: pass.rect,
            format: graph[pass.output].descriptor.format, pixels: try backend.pixels(of: output, rect: pass.rect)))
      }
      return outputs
    }
  }
}

extension CPUBackend: PassInspectable {
  /// A new CPU image is zeros already (this backend's images are all new: its
  /// pool starts empty).
  func clear(_ image: CPUImage) throws {}

  func pixels(of image: CPUImage, rect: PixelRect) throws -> [SIMD4<Float>] {
    let width = image.descriptor.size.width
    var pixels: [SIMD4<Float>] = []
    pixels.reserveCapacity(rect.pixelCount)
    for y in rect.y..<rect.maxY {
      for x in rect.x..<rect.maxX {
        switch image.descriptor.format {
        case .linearHalf:
          pixels.append(image.linear[y * width + x])
        case .srgb8, .srgb16:
          let p = image.encoded.pixel16(x: x, y: y)
          let scale: Float = image.descriptor.format == .srgb8 ? 1 / 257 : 1
          pixels.append(SIMD4(Float(p[0]), Float(p[1]), Float(p[2]), Float(p[3])) * scale)
        }
      }
    }
    return pixels
  }
}

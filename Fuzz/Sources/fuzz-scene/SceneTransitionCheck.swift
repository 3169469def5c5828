import GLESGlass

// The promises of a scene's transition (docs/scene-format.md, "States and
// transitions"; Scene.frame(at:); AnimationRenderer), checked on a scene that
// `validate()` accepted:
// - validate and frame(at:) run the same checks: no finite time is refused;
// - time 0 and before is the first state exactly, the settle time and after the
//   second exactly;
// - a moment is a static scene of the canvas and background that validates, with
//   the layers of the second state's positions and kinds;
// - a text layer is drawn from one state at a time (a changed string: the first's
//   while p < 1/2, the second's from 1/2) and is never narrower or shorter than
//   the smaller of its two frames;
// - AnimationRenderer: once both states are checked, every frame renders, the
//   frames come in order, and the ends are the states' own renders byte for byte.

/// Checks one scene's transition; a broken promise is a `fatalError` (a finding).
struct SceneTransitionCheck {
  let scene: Scene
  let transition: SceneTransition
  /// How many moments `run` computed.
  private(set) var momentsChecked = 0

  init(scene: Scene, transition: SceneTransition) {
    self.scene = scene
    self.transition = transition
  }

  /// A state of the scene, which validate() said exists.
  func state(_ name: String) -> Scene {
    do {
      return try scene.state(name)
    } catch {
      fatalError("fuzz-scene: validate() accepted the transition but its state \"\(name)\" is refused: \(error)")
    }
  }

  /// The moment at `time`, which must not be refused.
  mutating func moment(at time: Double) -> Scene {
    momentsChecked += 1
    do {
      return try scene.frame(at: time)
    } catch {
      fatalError(
        "fuzz-scene: validate() accepted the scene but frame(at: \(time)) refuses it: \(error)\nscene:\n\(scene.json)")
    }
  }

  /// Checks the ends and moments through the curve; returns the moment at `time`.
  mutating func run(at time: Double) -> Scene {
    let first = state(transition.from)
    let second = state(transition.to)
    let settle = transition.animation.settleTime
    guard settle.isFinite && settle > 0 else {
      fatalError("fuzz-scene: a transition validate() accepted settles after \(settle) s")
    }
    for t in [0, -0.0, -1, -Double.greatestFiniteMagnitude] where moment(at: t) != first {
      fatalError("fuzz-scene: the moment at \(t) s is not the first state \"\(transition.from)\"")
    }
    for t in [settle, settle + 1, settle * 2, Double.greatestFiniteMagnitude] where moment(at: t) != second {
      fatalError(
        "fuzz-scene: the moment at \(t) s (settle time \(settle) s) is not the second state \"\(transition.to)\"")
    }
    for t in [settle / 4, settle / 2, settle * 3 / 4, settle.nextDown, Double.leastNonzeroMagnitude] {
      check(moment(at: t), at: t, first, second)
    }
    let chosen = moment(at: time)
    check(chosen, at: time, first, second)
    return chosen
  }

  /// A moment between the ends: its canvas, its layers' kinds, its text, and that it validates.
  func check(_ moment: Scene, at time: Double, _ first: Scene, _ second: Scene) {
    func fail(_ what: String) -> Never {
      fatalError("fuzz-scene: the moment at \(time) s \(what)\nscene:\n\(scene.json)\nmoment:\n\(moment.json)")
    }
    if moment.size != scene.size || moment.scale != scene.scale || moment.background != scene.background {
      fail("has another canvas or background than the scene")
    }
    if !moment.states.isEmpty || moment.transition != nil { fail("is not a static scene") }
    do {
      try moment.validate()
    } catch {
      fail("does not validate: \(error)")
    }
    guard moment.layers.count == second.layers.count && first.layers.count == second.layers.count else {
      fail(
        "has \(moment.layers.count) layers; its states \(first.layers.count) and \(second.layers.count) "
          + "(layers pair by position)")
    }
    let p = transition.animation.progress(at: time)
    for (i, layer) in moment.layers.enumerated() {
      let (a, b) = (first.layers[i], second.layers[i])
      guard kind(layer) == kind(b) && kind(a) == kind(b) else {
        fail("has a \(kind(layer)) at layer \(i), its states a \(kind(a)) and a \(kind(b))")
      }
      guard case .text(let t) = layer, case .text(let ta) = a, case .text(let tb) = b else { continue }
      if t.frame.width < min(ta.frame.width, tb.frame.width) || t.frame.height < min(ta.frame.height, tb.frame.height) {
        fail("draws text layer \(i) in \(t.frame), smaller than both states' \(ta.frame) and \(tb.frame)")
      }
      if ta.text.string != tb.text.string {
        // A changed string fades through at p = 1/2: one is drawn, chosen by p alone.
        let expected = p < 0.5 ? ta.text.string : tb.text.string
        if t.text.string != expected {
          fail("draws text layer \(i)'s \(p < 0.5 ? "second" : "first") string at progress \(p)")
        }
      } else if t.text.string != tb.text.string {
        fail("draws text layer \(i) with a string neither state has")
      }
    }
  }

  /// The layer's kind, as the scene format names it.
  func kind(_ layer: Layer) -> String {
    switch layer {
    case .image: "image"
    case .shape: "shape"
    case .material: "material"
    case .glass: "glass"
    case .container: "glassContainer"
    case .text: "text"
    }
  }

  /// Renders the whole animation on the CPU at a few frames (a rate of 3 per
  /// settle time, a hold and a round trip by `seed`). Returns false when a state
  /// does not prepare (the animation refuses it before any frame, as it should).
  func renderAnimation(images: [String: RGBAImage], depth: RGBAImage.Depth, seed: Int) -> Bool {
    let settle = transition.animation.settleTime
    let fps = min(3 / settle, AnimationRenderer.maximumFPS)
    let hold = seed % 3 == 0 && 1 / fps <= AnimationRenderer.maximumHoldSeconds ? 1 / fps : 0
    let options = AnimationRenderer.Options(
      fps: fps, holdSeconds: hold, roundTrip: seed % 5 < 2, depth: depth, maxPixels: prepareMaxPixels)
    let animation: AnimationRenderer
    let renderer: Renderer
    do {
      animation = try AnimationRenderer(scene: scene, images: images, options: options)
      renderer = try Renderer(backend: .cpu)
    } catch {
      // validate() does not lay the views out; the animation does, and may refuse
      // what layout refuses (a view laid out past the drawable size), as render does,
      // with the same error. Anything else is a promise broken.
      do {
        _ = try scene.laidOut(images: SceneImages(images))
      } catch let layoutError as GlassError {
        if "\(layoutError)" == "\(error)" { return false }
      } catch {}
      fatalError("fuzz-scene: AnimationRenderer refuses a scene validate() accepted at \(fps) fps: \(error)")
    }
    do {
      try animation.check()
    } catch is GlassError {
      return false
    } catch {
      fatalError("fuzz-scene: AnimationRenderer.check threw an error that is not a GlassError: \(error)")
    }
    // The documented layout: h frames of the first state, the n frames of the
    // transition, h of the second (round trip: n - 1 back, h more).
    let n = animation.transitionFrameCount
    let h = animation.holdFrameCount
    let count = animation.frameCount
    let last = Double(n - 1) / fps
    guard n >= 1, h == Int((hold * fps).rounded()), count == 2 * h + n + (options.roundTrip ? n - 1 + h : 0),
      last >= settle * (1 - 1e-9), n < 2 || Double(n - 2) / fps < settle
    else {
      fatalError(
        "fuzz-scene: an animation of settle time \(settle) s at \(fps) fps, hold \(hold) s, round trip "
          + "\(options.roundTrip) has \(count) frames, \(n) of the transition and \(h) held")
    }
    var shown: [Int: RGBAImage] = [:]
    var next = 0
    do {
      let handed = try animation.render(on: renderer) { frames, image in
        guard frames.lowerBound == next && !frames.isEmpty else {
          fatalError("fuzz-scene: the animation handed frames \(frames) after \(next)")
        }
        if image.size != scene.pixelSize || image.depth != depth {
          fatalError("fuzz-scene: an animation frame is \(image.size) at \(image.depth)")
        }
        next = frames.upperBound
        for end in [0, h + n - 1, count - 1] where frames.contains(end) { shown[end] = image }
      }
      guard handed == count && next == count else {
        fatalError("fuzz-scene: the animation handed \(handed) of \(count) frames")
      }
    } catch {
      fatalError(
        "fuzz-scene: both states were checked, but a frame of the animation fails: \(error)\nscene:\n\(scene.json)")
    }
    // The ends are the states' own renders.
    let ends = [
      (0, transition.from), (h + n - 1, transition.to),
      (count - 1, options.roundTrip ? transition.from : transition.to),
    ]
    for (index, name) in ends {
      var timings = RenderTimings()
      do {
        let own = try renderer.render(
          state(name), images: SceneImages(images), depth: depth, maxPixels: prepareMaxPixels,
          timings: &timings)
        if shown[index] != own {
          fatalError(
            "fuzz-scene: frame \(index) of \(count) is not state \"\(name)\"'s own render\nscene:\n\(scene.json)")
        }
      } catch {
        fatalError("fuzz-scene: state \"\(name)\" rendered in an animation but not alone: \(error)")
      }
    }
    return true
  }
}

import GLESGlass

// "Applying Liquid Glass to custom views" (SwiftUI documentation): two images
// in a container, the second offset towards the first so that their glass
// blends, as the article's listing writes them.

struct CustomViewsExample: View {
  var body: some View {
    GlassEffectContainer(spacing: 40.0) {
      HStack(spacing: 40.0) {
        Image(systemName: "scribble.variable")
          .frame(width: 80.0, height: 80.0)
          .font(.system(size: 36))
          .glassEffect()

        Image(systemName: "eraser.fill")
          .frame(width: 80.0, height: 80.0)
          .font(.system(size: 36))
          .glassEffect()

          // An `offset` shows how Liquid Glass effects react to each other in a container.
          .offset(x: -40.0, y: 0.0)
      }
    }
  }
}

extension AppleExamples {
  /// The two images over the landscape photo (480 × 240 points).
  public static var customViews: Scene {
    Scene(width: 480, height: 240, scale: 2, background: .image("../landscape.png", contentMode: .fill)) {
      CustomViewsExample()
    }
  }
}

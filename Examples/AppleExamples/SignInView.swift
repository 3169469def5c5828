import GLESGlass

// "Adding a background to your view" (SwiftUI documentation): the sign-in view
// as its last listing writes it, the gradient reaching past the safe area and
// the content kept inside it.

/// The article's gradient. (A computed variable: a global `let` of a view must be
/// `Sendable` in Swift 6, and the article's is written for an app's main actor.)
var backgroundGradient: LinearGradient {
  LinearGradient(
    colors: [Color.red, Color.blue],
    startPoint: .top, endPoint: .bottom)
}

struct SignInView: View {
  @State private var name: String = ""
  var body: some View {
    ZStack {
      backgroundGradient
        .ignoresSafeArea()
      VStack {
        Text("Welcome")
          .font(.title)
        HStack {
          TextField("Your name?", text: $name)
            .textFieldStyle(.roundedBorder)
          Button(
            action: {},
            label: {
              Image(systemName: "arrow.right.square")
                .font(.title)
            })
        }
        .padding()
      }
    }
  }
}

extension AppleExamples {
  /// The sign-in view on an iPhone-sized canvas (390 × 844 points) with a status
  /// bar (47 points) and a home indicator (34 points) as its safe area.
  public static var signIn: Scene {
    Scene(
      width: 390, height: 844, scale: 2, safeAreaInsets: EdgeInsets(top: 47, leading: 0, bottom: 34, trailing: 0)
    ) {
      SignInView()
    }
  }
}

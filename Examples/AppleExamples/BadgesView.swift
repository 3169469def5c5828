import GLESGlass

// Landmarks: Building an app with Liquid Glass (Apple's sample code),
// BadgesView.swift and the values of its Constants.swift and Badge.swift. The
// app's model (`ModelData.earnedBadges`, the `Badge` enumeration, the colour
// asset "badgeShowHideColor") is replaced by plain values; `isExpanded`, a
// `@State` the toggle button flips in `withAnimation`, is the scene's state
// (`Scene(states:)`, and `transition(from:to:)` for the animation).

/// The sample's constants used here, in points.
enum Constants {
  static let badgeSize: Double = 52.0
  static let badgeGlassSpacing: Double = 16.0
  static let badgeSpacing: Double = 14.0
  static let badgeButtonTopSpacing: Double = 20.0
  static let badgeShowHideButtonWidth: Double = 24.0
  static let badgeShowHideButtonHeight: Double = 32.0
  static let toggleButtonFontSize: Double = 17.0
  static let hexagonSize: Double = 48.0
  static let badgeImagePadding: Double = 12.0
  static let badgeCornerRadius: Double = 24.0
  static let badgeFrameWidth: Double = 74.0
}

/// A badge as plain values: the sample's `Badge` cases' symbol, font size and colour.
struct Badge: Identifiable {
  var id: String
  var symbolName: String
  var size: Double
  var badgeColor: Color
  func fontSize() -> Double { size }
}

/// Three of the sample's badges, as earned.
let earnedBadges = [
  Badge(id: "saharaDesert", symbolName: "sun.max.fill", size: 26.0, badgeColor: .orange),
  Badge(id: "mountFuji", symbolName: "mountain.2.fill", size: 18.0, badgeColor: .blue),
  Badge(id: "southShetlandIslands", symbolName: "snowflake", size: 28.0, badgeColor: .blue),
]

/// The colour asset "badgeShowHideColor", as a plain value.
let badgeShowHideColor = Color(hex: 0x3C3C43)

/// A view with a toggle button that shows or hides earned badges in a vertical layout.
struct BadgesView: View {
  @State var isExpanded: Bool = false
  @Namespace private var namespace

  var body: some View {
    // Organizes the badges and toggle button to animate together.
    GlassEffectContainer(spacing: Constants.badgeGlassSpacing) {
      VStack(alignment: .center, spacing: Constants.badgeButtonTopSpacing) {
        if isExpanded {
          VStack(spacing: Constants.badgeSpacing) {
            ForEach(earnedBadges) {
              BadgeLabel(badge: $0)
                // Adds Liquid Glass to the badge.
                .glassEffect(.regular, in: .rect(cornerRadius: Constants.badgeCornerRadius))
                // Adds an identifier to the badge for animation.
                .glassEffectID($0.id, in: namespace)
            }
          }
        }

        Button {
          // withAnimation { isExpanded.toggle() }: here the scene's transition.
        } label: {
          ToggleBadgesLabel(isExpanded: isExpanded)
            .frame(
              width: Constants.badgeShowHideButtonWidth,
              height: Constants.badgeShowHideButtonHeight)
        }
        // Adds Liquid Glass to the button.
        .buttonStyle(.glass)
        // Adds an identifier to the button for animation.
        .glassEffectID("togglebutton", in: namespace)
      }
      .frame(width: Constants.badgeFrameWidth)
    }
  }
}

struct BadgeLabel: View {
  var badge: Badge
  var body: some View {
    Image(systemName: badge.symbolName)
      .foregroundStyle(.white)
      .font(.system(size: badge.fontSize()))
      .fontWeight(.medium)
      .frame(width: Constants.badgeSize, height: Constants.badgeSize)
      .background(content: {
        Image(systemName: "hexagon.fill")
          .foregroundStyle(badge.badgeColor)
          .font(.system(size: Constants.hexagonSize))
          .frame(
            width: Constants.badgeSize,
            height: Constants.badgeSize)
      })
      .padding(Constants.badgeImagePadding)
  }
}

struct ToggleBadgesLabel: View {
  var isExpanded: Bool
  var body: some View {
    Label(
      isExpanded ? "Hide Badges" : "Show Badges",
      systemImage: isExpanded ? "xmark" : "hexagon.fill"
    )
    .foregroundStyle(badgeShowHideColor)
    .labelStyle(.iconOnly)
    .font(.system(size: Constants.toggleButtonFontSize))
    .fontWeight(.medium)
  }
}

/// A view modifier that places ``BadgesView`` over a modified view, in the lower trailing corner.
private struct ShowsBadgesViewModifier: ViewModifier {
  func body(content: Content) -> some View {
    ZStack {
      content
      HStack {
        Spacer()
        VStack {
          Spacer()
          BadgesView()
            .padding()
        }
      }
    }
  }
}

extension View {
  /// A function that returns a view after it applies `ShowBadgesViewModifier` to it.
  func showsBadges() -> some View {
    modifier(ShowsBadgesViewModifier())
  }
}

extension AppleExamples {
  /// The badges overlay: a landmark's photo (600 × 400 points) with the badge
  /// view, collapsed to its toggle button, in the lower trailing corner.
  public static var badgesOverlay: Scene {
    Scene(width: 600, height: 400, scale: 2) {
      Image("../flowers.png")
        .resizable()
        .showsBadges()
    }
  }

  /// The badge column on its own (200 × 440 points, over the flowers photo), in
  /// two states, collapsed and expanded, and the sample's `withAnimation` between
  /// them: the badges grow out of the toggle button.
  public static var badgeColumn: Scene {
    Scene(
      width: 200, height: 440, scale: 2, background: .image("../flowers.png", contentMode: .fill),
      states: ["collapsed": false, "expanded": true]
    ) { isExpanded in
      BadgesView(isExpanded: isExpanded)
    }
    .transition(from: "collapsed", to: "expanded")
  }
}

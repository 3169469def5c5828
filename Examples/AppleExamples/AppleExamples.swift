import GLESGlass

/// Apple's four layout examples written as they read in Apple's documents, each
/// the same scene as its file in `Assets/scenes` (`layout-NAME.json`): the
/// sign-in view of "Adding a background to your view", Landmarks' badges overlay
/// and badge column, and "Applying Liquid Glass to custom views".
public enum AppleExamples {
  /// Each example by the name of its scene file (`Assets/scenes/layout-NAME.json`).
  public static var all: [(name: String, scene: Scene)] {
    [
      ("signin", signIn), ("badges", badgesOverlay), ("badge-column", badgeColumn), ("custom-views", customViews),
    ]
  }
}

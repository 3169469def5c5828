import Foundation
import PackagePlugin

/// Compiles the GLSL files of a target into Swift string literals, so that the
/// shaders travel inside the binary (no resource bundle to lose).
@main
struct EmbedShaders: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    let shaders = target.sourceFiles(withSuffix: "glsl").map(\.url).sorted { $0.path < $1.path }
    let output = context.pluginWorkDirectoryURL.appending(path: "ShaderSources.generated.swift")
    return [
      .buildCommand(
        displayName: "Embedding \(shaders.count) GLSL files into \(target.name)",
        executable: try context.tool(named: "shader-embed").url,
        arguments: [output.path] + shaders.map(\.path),
        inputFiles: shaders,
        outputFiles: [output]
      )
    ]
  }
}

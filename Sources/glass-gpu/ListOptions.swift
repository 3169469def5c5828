import ArgumentParser
import Foundation
import GLESGlass

// Options that take long lists from a file, where the command line cannot hold
// them: one argument is capped at 128 KiB, and ArgumentParser's cost grows with
// the square of the number of repeated options. A list file is read in one pass
// (`ListFile`).

/// The help of `--environments-file`, for the commands that take `--environments`.
let environmentsFileHelp = ArgumentHelp(
  "Read variants from this file, as --environments takes them: one a line (or several separated by commas); blank "
    + "lines and # comments are skipped. For a matrix too long for the command line; with --environments, its "
    + "variants come first.", valueName: "file")

/// The variants `--environments` and `--environments-file` name, in that order
/// (none: each scene once as it is). Errors are usage errors naming the option
/// (and the file and line).
func variants(_ environments: String?, file: String? = nil) throws -> [EnvironmentVariant] {
  var listed: [EnvironmentVariant] = []
  if let environments {
    do {
      listed = try EnvironmentVariant.list(environments)
    } catch let error as GlassError {
      throw ValidationError("--environments: \(error.message)")
    }
  }
  guard let file else { return listed }
  let read: [EnvironmentVariant]
  do {
    read = try EnvironmentVariant.list(contentsOf: file)
  } catch let error as GlassError {
    throw ValidationError("--environments-file: \(error.description)")
  }
  let given = Set(listed.map(\.name))
  if let twice = read.first(where: { given.contains($0.name) }) {
    throw ValidationError(
      "--environments-file: \(file): the variant \"\(UserText.shortened(twice.name))\" is given in --environments "
        + "too; name each variant once")
  }
  return listed + read
}

/// The masks `--mask-file` lists, file after file; errors are usage errors
/// naming the option, the file and the line.
func listedMasks(inFiles files: [String]) throws -> [ComparisonMask] {
  var masks: [ComparisonMask] = []
  for file in files {
    do {
      masks += try ComparisonMask.list(contentsOf: file)
    } catch let error as GlassError {
      throw ValidationError("--mask-file: \(error.description)")
    }
  }
  return masks
}

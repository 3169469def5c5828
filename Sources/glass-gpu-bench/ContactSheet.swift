import ArgumentParser
import Foundation
import GLESGlass

/// Tiles PNGs into one picture: the demo's contact sheet.
struct ContactSheet: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "contact-sheet",
    abstract: "Tile PNGs, each fitted into a cell, into one PNG.",
    discussion: "Example: glass-gpu-bench contact-sheet out/contact-sheet.png out/*-gpu.png --columns 3")

  @Argument(help: "The output PNG.")
  var output: String

  @Argument(help: "The images, in order.")
  var images: [String]

  @Option(help: "Cells per row.")
  var columns = 3

  @Option(help: "Cell width in pixels.")
  var cellWidth = 640

  @Option(help: "Cell height in pixels.")
  var cellHeight = 400

  @Option(help: "Gap between cells in pixels.")
  var gap = 16

  func validate() throws {
    guard !images.isEmpty else { throw ValidationError("give at least one image") }
    guard columns > 0, cellWidth > 0, cellHeight > 0, gap >= 0 else {
      throw ValidationError("--columns, --cell-width and --cell-height must be positive, --gap not negative")
    }
  }

  func run() throws {
    let rows = (images.count + columns - 1) / columns
    let size = PixelSize(
      width: columns * cellWidth + (columns + 1) * gap, height: rows * cellHeight + (rows + 1) * gap)
    var sheet = RGBAImage(width: size.width, height: size.height) { _, _ in SIMD4(28, 28, 30, 255) }
    for (index, path) in images.enumerated() {
      let image = try PNGCodec.read(path: path).image
      let cell = ImageResampler.fit(image, to: PixelSize(width: cellWidth, height: cellHeight), mode: .fit)
        .converted(to: .eight)
      let x = gap + (index % columns) * (cellWidth + gap)
      let y = gap + (index / columns) * (cellHeight + gap)
      // Place the cell over the dark sheet, keeping the sheet where the cell is clear.
      for row in 0..<cellHeight {
        for column in 0..<cellWidth {
          let p = cell.pixel16(x: column, y: row)
          if p.w > 0 {
            sheet.copy(
              PixelRect(x: column, y: row, width: 1, height: 1), from: cell, to: PixelPoint(x: x + column, y: y + row))
          }
        }
      }
    }
    try PNGCodec.write(sheet, to: output, compression: 9)
  }
}

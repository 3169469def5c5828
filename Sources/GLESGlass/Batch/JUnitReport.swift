import Foundation

extension GoldenReport {
  /// The report as JUnit XML, the format GitHub Actions (through a test-report
  /// action), GitLab (`artifacts:reports:junit`) and Jenkins (`junit`) read: one
  /// `testsuite` named `suiteName`, one `testcase` a case (`classname` the suite,
  /// `name` the case's name, `file` its scene, `time` in seconds); a failure is a
  /// `failure` element typed `missing-reference`, `size-differs` or
  /// `images-differ` (`GoldenFailure`), a case that could not be checked an `error`, a recorded
  /// reference `skipped` (it was not checked). Messages say which files were written.
  ///
  /// With `htmlReport` (the page of `GoldenHTMLReport`), the suite has a
  /// property `report` naming it, and each failure's body links to its case there.
  public func junitXML(suiteName: String = "glass-gpu goldens", htmlReport: String? = nil) -> String {
    let failures = count(.failed)
    let errors = count(.error)
    let skipped = count(.recorded)
    let time = Self.seconds(wallSeconds)
    let stamp = ISO8601DateFormatter().string(from: timestamp)
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    xml +=
      "<testsuites name=\"\(XML.attribute(suiteName))\" tests=\"\(cases.count)\" failures=\"\(failures)\" "
      + "errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(time)\">\n"
    xml +=
      "  <testsuite name=\"\(XML.attribute(suiteName))\" tests=\"\(cases.count)\" failures=\"\(failures)\" "
      + "errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(time)\" timestamp=\"\(stamp)\">\n"
    xml += "    <properties>\n"
    xml += "      <property name=\"backend\" value=\"\(XML.attribute(backend))\"/>\n"
    if let htmlReport { xml += "      <property name=\"report\" value=\"\(XML.attribute(htmlReport))\"/>\n" }
    xml += "    </properties>\n"
    for item in cases {
      var open =
        "    <testcase classname=\"\(XML.attribute(suiteName))\" name=\"\(XML.attribute(item.name))\""
      if let scene = item.scene { open += " file=\"\(XML.attribute(scene))\"" }
      open += " time=\"\(Self.seconds(item.seconds))\""
      let message = item.message ?? ""
      switch item.status {
      case .passed:
        xml += open + "/>\n"
      case .failed:
        xml += open + ">\n"
        xml +=
          "      <failure message=\"\(XML.attribute(message))\" "
          + "type=\"\((item.failure ?? .imagesDiffer).rawValue)\">\(XML.text(details(item, htmlReport: htmlReport)))"
          + "</failure>\n"
        xml += "    </testcase>\n"
      case .error:
        let type = item.error?.code.rawValue ?? "error"
        xml += open + ">\n"
        xml += "      <error message=\"\(XML.attribute(message))\" type=\"\(XML.attribute(type))\"/>\n"
        xml += "    </testcase>\n"
      case .recorded:
        xml += open + ">\n"
        xml += "      <skipped message=\"\(XML.attribute(message))\"/>\n"
        xml += "    </testcase>\n"
      }
    }
    xml += "  </testsuite>\n</testsuites>\n"
    return xml
  }

  /// A failure's body: the measurements and the files, one a line.
  private func details(_ item: GoldenCase, htmlReport: String?) -> String {
    var lines: [String] = []
    if let htmlReport {
      let name = item.name.addingPercentEncoding(withAllowedCharacters: .urlFragmentAllowed) ?? item.name
      lines.append("report: \(htmlReport)#case=\(name)")
    }
    if let reference = item.reference { lines.append("reference: \(reference)") }
    if let actual = item.actual { lines.append("actual: \(actual)") }
    if let difference = item.difference { lines.append("difference: \(difference)") }
    if let c = item.comparison {
      let psnr = c.psnr.isInfinite ? "inf" : String(format: "%.2f", c.psnr)
      lines.append(
        String(format: "max difference %.3g/255, ", c.maxDifference)
          + "\(c.pixelsOverOne) of \(c.pixelCount) pixels over 1/255, PSNR \(psnr) dB")
    }
    return lines.joined(separator: "\n")
  }

  private static func seconds(_ value: Double) -> String { String(format: "%.3f", max(0, value)) }
}

/// Escaping for XML 1.0.
enum XML {
  /// `text` as element content: `&`, `<` and `>` escaped; characters XML 1.0 does
  /// not allow (controls other than tab, line feed and carriage return, U+FFFE,
  /// U+FFFF) replaced by U+FFFD.
  static func text(_ text: String) -> String {
    escape(text, quotes: false)
  }

  /// `text` as an attribute value in double quotes: as `text`, and `"`, `'`, tab,
  /// line feed and carriage return as character references (so that they survive
  /// attribute-value normalisation).
  static func attribute(_ text: String) -> String {
    escape(text, quotes: true)
  }

  private static func escape(_ text: String, quotes: Bool) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"" where quotes: out += "&quot;"
      case "'" where quotes: out += "&apos;"
      case "\t" where quotes: out += "&#9;"
      case "\n" where quotes: out += "&#10;"
      case "\r": out += "&#13;"
      case "\t", "\n": out.unicodeScalars.append(scalar)
      default:
        let v = scalar.value
        if v < 0x20 || v == 0xFFFE || v == 0xFFFF {
          out += "\u{FFFD}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }
}

import Foundation
import HotStringsTestSupport
import Testing
@testable import HotStringsCLI

/// The pages a new user reads (README.md and docs/*.md) kept true: every relative link leads to a file and every
/// `#anchor` to a heading, as GitHub renders them; GUIDE's options table lists what each command declares.
@Suite struct DocumentationTests {
    /// README.md and every page of docs/, relative to the repository root.
    static let pages = ["README.md"] + ((try? FileManager.default.contentsOfDirectory(
        atPath: repositoryRoot.appendingPathComponent("docs").path)) ?? [])
        .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }

    @Test func everyRelativeLinkAndAnchorLeadsSomewhere() throws {
        #expect(Self.pages.count >= 9, "\(Self.pages)")
        var cache: [String: MarkdownPage] = [:]
        func page(_ path: String) throws -> MarkdownPage {
            if let page = cache[path] { return page }
            let text = try String(contentsOf: repositoryRoot.appendingPathComponent(path), encoding: .utf8)
            let page = MarkdownPage(text)
            cache[path] = page
            return page
        }
        var problems: [String] = []
        var checked = 0
        for path in Self.pages {
            let source = try page(path)
            if let line = source.unclosedFence {
                problems.append("\(path):\(line): a code block that is never closed (every heading after it is code)")
            }
            for link in source.links {
                // Links with a scheme (https:, mailto:) lead off the repository.
                guard link.target.firstMatch(of: /^[A-Za-z][A-Za-z0-9+.-]*:/) == nil else { continue }
                checked += 1
                let parts = link.target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let file = String(parts[0])
                var target = path
                if !file.isEmpty {
                    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().relativePath
                    target = URL(fileURLWithPath: folder == "." ? file : folder + "/" + file).standardized
                        .relativePath
                    guard !target.hasPrefix("../"),
                          FileManager.default.fileExists(atPath: repositoryRoot.appendingPathComponent(target).path)
                    else {
                        problems.append("\(path):\(link.line): \(link.target): no file \(target)")
                        continue
                    }
                }
                guard parts.count == 2, target.hasSuffix(".md") else { continue }
                let anchor = String(parts[1])
                if !(try page(target)).anchors.contains(anchor) {
                    problems.append("\(path):\(link.line): \(link.target): no heading of \(target) has the anchor "
                        + "#\(anchor)")
                }
            }
        }
        #expect(checked > 60, "only \(checked) links checked")
        #expect(problems.isEmpty, "\(problems.count) broken:\n\(problems.joined(separator: "\n"))")
    }

    /// GitHub's anchors, and what is not a heading or a link.
    @Test func anchorsFollowGitHubsRules() {
        let page = MarkdownPage("""
            # `hotstrings serve [BUNDLE]`: the daemon
            ## Edit live: `hotstrings set` and `remove`
            ## Usage, errors and exit codes
            ## Usage, errors and exit codes
            ### [Linked](x.md) heading_with_underscore ###
            ```
            # not a heading [nor](a-link.md)
            ```
            See [this](#usage-errors-and-exit-codes-1), `[code](not-a-link.md)`, ![an image](pic.png).
            ~~~~
            unclosed
            """)
        #expect(page.anchors == ["hotstrings-serve-bundle-the-daemon", "edit-live-hotstrings-set-and-remove",
                                 "usage-errors-and-exit-codes", "usage-errors-and-exit-codes-1",
                                 "linked-heading_with_underscore"])
        #expect(page.links.map(\.target) == ["x.md", "#usage-errors-and-exit-codes-1", "pic.png"])
        #expect(page.unclosedFence == 10)
    }

    /// Every command's options, as its spec declares them, are in GUIDE's table, and the table names no other.
    @Test func theGuidesOptionsTableListsEveryOptionOfEveryCommand() throws {
        let guide = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/GUIDE.md"), encoding: .utf8)
        let lines = guide.split(separator: "\n")
        let start = try #require(lines.firstIndex { $0.hasPrefix("| command | options") })
        var listed: [String: Set<String>] = [:]
        var takesClientOptions: Set<String> = []
        var clientOptions: Set<String> = []
        for row in lines[(start + 2)...].prefix(while: { $0.hasPrefix("|") }) {
            let cells = row.split(separator: "|", omittingEmptySubsequences: false)
            try #require(cells.count == 4, "\(row)")
            let options = Set(cells[2].matches(of: /--([a-z][a-z0-9-]*)/).map { String($0.1) })
            if cells[1].trimmingCharacters(in: .whitespaces) == "client options" {
                clientOptions = options
                continue
            }
            let commands = cells[1].matches(of: /`([a-z-]+)[^`]*`/).map { String($0.1) }
            try #require(!commands.isEmpty, "\(row)")
            for command in commands {
                #expect(listed[command] == nil, "'\(command)' has two rows")
                listed[command] = options
                if cells[2].contains("+ client options") { takesClientOptions.insert(command) }
            }
        }
        #expect(!clientOptions.isEmpty)
        for command in takesClientOptions { listed[command]?.formUnion(clientOptions) }
        for command in CLI.commands.map({ $0.spec }) {
            let declared = Set(command.options.map(\.spec.name))
            guard let options = listed.removeValue(forKey: command.name) else {
                Issue.record("GUIDE's options table has no row for '\(command.name)'")
                continue
            }
            #expect(options == declared, """
                GUIDE's row for '\(command.name)' lacks \(declared.subtracting(options).sorted()) and names \
                \(options.subtracting(declared).sorted()), which it does not take
                """)
        }
        #expect(listed.isEmpty, "rows for commands that do not exist: \(listed.keys.sorted())")
    }
}

/// A Markdown page's headings (as GitHub's anchors) and links, outside fenced code blocks.
struct MarkdownPage {
    /// The anchors of the headings, as GitHub makes them.
    var anchors: Set<String> = []
    /// Every link's target (`GUIDE.md#plurals`, `#events`, `systemd/`), with its 1-based line, images included.
    var links: [(line: Int, target: String)] = []
    /// The line of a code fence that is never closed, if any.
    var unclosedFence: Int?

    init(_ text: String) {
        var counts: [String: Int] = [:]
        var fence: (marker: Character, length: Int, line: Int)?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let indent = line.prefix { $0 == " " }.count
            let body = line.dropFirst(indent)
            if indent < 4, let marker = body.first, marker == "`" || marker == "~" {
                let length = body.prefix { $0 == marker }.count
                if length >= 3 {
                    if let open = fence {
                        if marker == open.marker, length >= open.length,
                           body.dropFirst(length).allSatisfy(\.isWhitespace) { fence = nil }
                    } else {
                        fence = (marker, length, index + 1)
                    }
                    continue
                }
            }
            guard fence == nil else { continue }
            if indent < 4, let heading = body.wholeMatch(of: /(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*/) {
                let anchor = Self.anchor(String(heading.2 ?? ""))
                let count = counts[anchor, default: 0]
                counts[anchor] = count + 1
                anchors.insert(count == 0 ? anchor : "\(anchor)-\(count)")
            }
            let prose = line.replacing(/`[^`]*`/, with: "")
            for match in prose.matches(of: /\]\(([^)\s]+)(?:\s+"[^"]*")?\)/) {
                links.append((index + 1, String(match.1)))
            }
        }
        unclosedFence = fence?.line
    }

    /// GitHub's anchor of a heading: its text as rendered (a link is its text), lower-cased, with every character
    /// but letters, marks, numbers, `_`, `-` and spaces dropped, and spaces made `-`.
    static func anchor(_ heading: String) -> String {
        let text = heading.replacing(/!?\[([^\]]*)\]\([^)]*\)/) { String($0.1) }.lowercased()
        var anchor = ""
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case _ where scalar == " ": anchor += "-"
            case _ where scalar == "-": anchor += "-"
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .nonspacingMark,
                 .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber, .connectorPunctuation:
                anchor.unicodeScalars.append(scalar)
            default: continue
            }
        }
        return anchor
    }
}

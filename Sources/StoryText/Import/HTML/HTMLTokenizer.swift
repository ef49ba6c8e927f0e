/// A forgiving HTML/XHTML tokenizer for text extraction: never fails, decodes character
/// references, skips comments, doctypes, processing instructions and the raw text of
/// `<script>`/`<style>`. Works on an array of scalars, so it is one linear pass.
struct HTMLTokenizer {
    enum Token: Equatable {
        /// `name` is lowercased and without a namespace prefix; attribute names are lowercased.
        case startTag(name: String, attributes: [String: String], selfClosing: Bool)
        case endTag(name: String)
        case text([Unicode.Scalar])
    }

    private let source: [Unicode.Scalar]
    private var index = 0

    init(_ html: String) {
        source = Array(html.unicodeScalars)
    }

    mutating func next() -> Token? {
        while index < source.count {
            guard source[index] == "<" else { return .text(text()) }
            // A `<` that starts no markup is text ("a < b").
            guard startsMarkup(at: index) else {
                index += 1
                return .text(["<"])
            }
            if let token = markup() { return token }
            // A comment, doctype or processing instruction was skipped.
        }
        return nil
    }

    // MARK: Text

    private mutating func text() -> [Unicode.Scalar] {
        var out: [Unicode.Scalar] = []
        while index < source.count, source[index] != "<" {
            if source[index] == "&" {
                out.append(contentsOf: reference())
            } else {
                out.append(source[index])
                index += 1
            }
        }
        return out
    }

    /// Decodes the character reference at `index` (which holds `&`), or yields a literal `&`.
    private mutating func reference() -> [Unicode.Scalar] {
        let start = index
        index += 1
        if index < source.count, source[index] == "#" {
            index += 1
            var hex = false
            if index < source.count, source[index] == "x" || source[index] == "X" {
                hex = true
                index += 1
            }
            var value: UInt32 = 0, digits = 0
            while index < source.count, let digit = Self.digit(source[index], hex: hex), digits < 8 {
                value = value * (hex ? 16 : 10) + digit
                digits += 1
                index += 1
            }
            guard digits > 0 else {
                index = start + 1
                return ["&"]
            }
            if index < source.count, source[index] == ";" { index += 1 }
            return [HTMLEntities.numeric(value)]
        }
        var name = ""
        while index < source.count, name.unicodeScalars.count < 32,
              source[index].properties.isASCIIHexDigit || Self.isASCIILetter(source[index]) {
            name.unicodeScalars.append(source[index])
            index += 1
        }
        let terminated = index < source.count && source[index] == ";"
        if let scalars = HTMLEntities.named(name),
           terminated || HTMLEntities.legacyWithoutSemicolon.contains(name) {
            if terminated { index += 1 }
            return scalars
        }
        index = start + 1
        return ["&"]
    }

    private static func digit(_ scalar: Unicode.Scalar, hex: Bool) -> UInt32? {
        switch scalar.value {
        case 0x30...0x39: return scalar.value - 0x30
        case 0x41...0x46 where hex: return scalar.value - 0x41 + 10
        case 0x61...0x66 where hex: return scalar.value - 0x61 + 10
        default: return nil
        }
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        (0x41...0x5A).contains(scalar.value) || (0x61...0x7A).contains(scalar.value)
    }

    // MARK: Markup

    private func startsMarkup(at position: Int) -> Bool {
        guard position + 1 < source.count else { return false }
        let next = source[position + 1]
        return next == "!" || next == "?" || next == "/" || Self.isASCIILetter(next)
    }

    /// Consumes markup at `index` (a `<` that `startsMarkup`). Returns a tag token, or nil after
    /// skipping a comment, doctype or processing instruction.
    private mutating func markup() -> Token? {
        let next = source[index + 1]
        if next == "!" {
            if matches("<!--", at: index) {
                skip(past: "-->", from: index + 4)
            } else if matches("<![CDATA[", at: index) {
                let start = index + 9
                let end = find("]]>", from: start) ?? source.count
                index = min(end + 3, source.count)
                return .text(Array(source[start..<end]))
            } else {
                skipDeclaration(from: index + 2)
            }
            return nil
        }
        if next == "?" {
            skip(past: ">", from: index + 2)
            return nil
        }
        if next == "/" {
            guard index + 2 < source.count, Self.isASCIILetter(source[index + 2]) else {
                skip(past: ">", from: index + 2)
                return nil
            }
            index += 2
            let name = tagName()
            skip(past: ">", from: index)
            return .endTag(name: name)
        }
        index += 1
        let name = tagName()
        var attributes: [String: String] = [:]
        var selfClosing = false
        while index < source.count {
            skipWhitespace()
            guard index < source.count else { break }
            let scalar = source[index]
            if scalar == ">" { index += 1; break }
            if scalar == "/" {
                index += 1
                if index < source.count, source[index] == ">" { selfClosing = true; index += 1; break }
                continue
            }
            let attribute = attributeName()
            if attribute.isEmpty { index += 1; continue }
            skipWhitespace()
            var value = ""
            if index < source.count, source[index] == "=" {
                index += 1
                skipWhitespace()
                value = attributeValue()
            }
            if attributes[attribute] == nil { attributes[attribute] = value }
        }
        if name == "script" || name == "style", !selfClosing {
            skipRawText(until: name)
        }
        return .startTag(name: name, attributes: attributes, selfClosing: selfClosing)
    }

    /// Lowercased tag name without namespace prefix (`svg:svg` -> `svg`).
    private mutating func tagName() -> String {
        var name = String.UnicodeScalarView()
        while index < source.count {
            let scalar = source[index]
            if scalar.properties.isWhitespace || scalar == ">" || scalar == "/" { break }
            name.append(scalar)
            index += 1
        }
        let lowered = String(name).lowercased()
        if let colon = lowered.lastIndex(of: ":") { return String(lowered[lowered.index(after: colon)...]) }
        return lowered
    }

    private mutating func attributeName() -> String {
        var name = String.UnicodeScalarView()
        while index < source.count {
            let scalar = source[index]
            if scalar.properties.isWhitespace || scalar == "=" || scalar == ">" || scalar == "/" { break }
            name.append(scalar)
            index += 1
        }
        return String(name).lowercased()
    }

    private mutating func attributeValue() -> String {
        guard index < source.count else { return "" }
        var value = String.UnicodeScalarView()
        let quote = source[index]
        if quote == "\"" || quote == "'" {
            index += 1
            while index < source.count, source[index] != quote {
                if source[index] == "&" { value.append(contentsOf: reference()) } else { value.append(source[index]); index += 1 }
            }
            index += 1
        } else {
            while index < source.count, !source[index].properties.isWhitespace, source[index] != ">" {
                if source[index] == "&" { value.append(contentsOf: reference()) } else { value.append(source[index]); index += 1 }
            }
        }
        return String(value)
    }

    private mutating func skipWhitespace() {
        while index < source.count, source[index].properties.isWhitespace { index += 1 }
    }

    /// Skips a script's or style's content up to and including its end tag.
    private mutating func skipRawText(until name: String) {
        let closing = Array("</\(name)".unicodeScalars)
        var position = index
        while let found = find(closing, from: position, caseInsensitive: true) {
            let after = found + closing.count
            if after >= source.count || !Self.isASCIILetter(source[after]) {
                index = found
                return
            }
            position = after
        }
        index = source.count
    }

    /// Skips a `<!DOCTYPE …>` or other declaration, whose internal subset (`[ <!ENTITY …> ]`)
    /// and quoted strings may hold `>` that does not end it.
    private mutating func skipDeclaration(from start: Int) {
        var position = start, depth = 0
        var quote: Unicode.Scalar?
        while position < source.count {
            let scalar = source[position]
            if let open = quote {
                if scalar == open { quote = nil }
            } else if scalar == "\"" || scalar == "'" {
                quote = scalar
            } else if scalar == "[" {
                depth += 1
            } else if scalar == "]" {
                depth = max(0, depth - 1)
            } else if scalar == ">", depth == 0 {
                index = position + 1
                return
            }
            position += 1
        }
        index = source.count
    }

    private mutating func skip(past terminator: String, from start: Int) {
        let pattern = Array(terminator.unicodeScalars)
        if let found = find(pattern, from: start) {
            index = found + pattern.count
        } else {
            index = source.count
        }
    }

    private func matches(_ literal: String, at position: Int) -> Bool {
        let pattern = Array(literal.unicodeScalars)
        return position + pattern.count <= source.count && Array(source[position..<position + pattern.count]) == pattern
    }

    private func find(_ literal: String, from start: Int) -> Int? {
        find(Array(literal.unicodeScalars), from: start)
    }

    private func find(_ pattern: [Unicode.Scalar], from start: Int, caseInsensitive: Bool = false) -> Int? {
        guard let first = pattern.first, start <= source.count - pattern.count else { return nil }
        var position = start
        while position <= source.count - pattern.count {
            if Self.same(source[position], first, caseInsensitive) {
                var matched = true
                for offset in 1..<pattern.count where !Self.same(source[position + offset], pattern[offset], caseInsensitive) {
                    matched = false
                    break
                }
                if matched { return position }
            }
            position += 1
        }
        return nil
    }

    private static func same(_ a: Unicode.Scalar, _ b: Unicode.Scalar, _ caseInsensitive: Bool) -> Bool {
        if a == b { return true }
        guard caseInsensitive, a.isASCII, b.isASCII else { return false }
        return a.value | 0x20 == b.value | 0x20 && isASCIILetter(a)
    }
}

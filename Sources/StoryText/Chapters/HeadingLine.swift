/// Recognises one line of plain text as a chapter heading: "Chapter 1", "CHAPTER IV.",
/// "Chapter the First", "Part Two: The Return", "BOOK I", "Prologue", "## Title".
struct HeadingLine: Equatable {
    /// Headings of one kind follow each other ("chapter", "part", "book", "#2"); used to tell a
    /// table of contents from a part heading that introduces a chapter.
    var kind: String
    /// The heading as written, without trailing punctuation or Markdown markers.
    var label: String
    /// True when the line carries its own title ("Chapter 3: The Storm", "# The Storm").
    var hasTitle: Bool
    var isMarkdown: Bool
    /// For a bare numeral line ("IV", "12."): its value. Such lines are chapters only in sequence.
    var numeral: Int?

    static let maxLength = 100

    init?(_ line: String) {
        let trimmed = line.trimmingWhitespace
        guard !trimmed.isEmpty, trimmed.unicodeScalars.count <= Self.maxLength else { return nil }
        if let markdown = Self.markdown(trimmed) {
            self = markdown
            return
        }
        if let value = Self.bareNumeral(trimmed) {
            self.init(kind: "numeral", label: Self.cleanLabel(trimmed), hasTitle: false, numeral: value)
            return
        }
        guard let keyword = Self.keyword(trimmed) else { return nil }
        self = keyword
    }

    private init(kind: String, label: String, hasTitle: Bool, isMarkdown: Bool = false, numeral: Int? = nil) {
        self.kind = kind
        self.label = label
        self.hasTitle = hasTitle
        self.isMarkdown = isMarkdown
        self.numeral = numeral
    }

    /// "IV", "iv.", "12" alone on a line.
    private static func bareNumeral(_ line: String) -> Int? {
        var token = Substring(line)
        if token.last == "." { token = token.dropLast() }
        guard !token.isEmpty, token.count <= 8 else { return nil }
        if token.allSatisfy({ $0.isASCII && $0.isNumber }) { return Int(token).flatMap { (1...300).contains($0) ? $0 : nil } }
        return RomanNumeral.value(of: token)
    }

    private static func markdown(_ line: String) -> HeadingLine? {
        let level = line.prefix { $0 == "#" }.count
        guard (1...6).contains(level) else { return nil }
        let rest = line.dropFirst(level)
        guard rest.first == " " || rest.first == "\t" else { return nil }
        var title = rest.trimmingWhitespace
        while title.hasSuffix("#") { title.removeLast() }
        title = title.trimmingWhitespace
        guard !title.isEmpty else { return nil }
        return HeadingLine(kind: "#\(level)", label: title, hasTitle: true, isMarkdown: true)
    }

    /// Words that start a numbered heading, and the kind each makes.
    private static let numberedKeywords: [String: String] = [
        "chapter": "chapter", "chap": "chapter", "part": "part", "book": "book", "volume": "volume",
        "vol": "volume", "section": "section", "canto": "chapter", "act": "act", "scene": "scene",
        "letter": "chapter", "stave": "chapter",
    ]

    /// Words that are a heading on their own. They sit between chapters, so they count as chapters.
    private static let standaloneKeywords: Set<String> = [
        "prologue", "epilogue", "preface", "foreword", "introduction", "afterword", "interlude", "postscript",
    ]

    /// Whether a line whose first word is `word` (lowercased) could be a keyword heading.
    static func startsWithKeyword(_ word: String) -> Bool {
        numberedKeywords[word] != nil || standaloneKeywords.contains(word)
    }

    private static func keyword(_ line: String) -> HeadingLine? {
        let words = line.split(whereSeparator: { $0.isWhitespace })
        guard let firstWord = words.first else { return nil }
        let keyword = firstWord.trimmingCharacters(in: ".:").lowercased()
        if standaloneKeywords.contains(keyword) {
            let rest = remainder(of: line, after: 1)
            guard rest.isEmpty || startsTitle(rest, afterSeparator: firstWord.last == ":" || firstWord.last == ".") else {
                return nil
            }
            return HeadingLine(kind: "chapter", label: cleanLabel(line), hasTitle: !rest.isEmpty)
        }
        guard let kind = numberedKeywords[keyword], words.count >= 2, firstWord.last != "." || keyword == "chap" || keyword == "vol" else {
            return nil
        }
        guard let consumed = numberWords(Array(words.dropFirst())) else { return nil }
        let rest = remainder(of: line, after: 1 + consumed)
        let lastNumberWord = words[consumed]
        let separated = lastNumberWord.last.map { ".:-—–)".contains($0) } ?? false
        guard rest.isEmpty || startsTitle(rest, afterSeparator: separated) else { return nil }
        return HeadingLine(kind: kind, label: cleanLabel(line), hasTitle: !rest.isEmpty)
    }

    /// How many words at the start of `words` spell a number: 12, XIV, Two, Twenty-One,
    /// Twenty One, the First, the Twenty-Second, the Last.
    private static func numberWords(_ words: [Substring]) -> Int? {
        guard let first = words.first else { return nil }
        let token = first.trimmingCharacters(in: ".:,;)-—–")
        guard !token.isEmpty else { return nil }
        if token.count <= 4, token.allSatisfy({ $0.isASCII && $0.isNumber }) { return 1 }
        if RomanNumeral.value(of: token) != nil { return 1 }
        let lower = token.lowercased()
        if NumberWords.isCardinal(lower) {
            if words.count >= 2, NumberWords.tens.contains(lower),
               NumberWords.units.contains(words[1].trimmingCharacters(in: ".:,;").lowercased()) {
                return 2
            }
            return 1
        }
        if lower == "the", words.count >= 2 {
            let next = words[1].trimmingCharacters(in: ".:,;)-—–").lowercased()
            if NumberWords.isOrdinal(next) || next == "last" { return 2 }
        }
        return nil
    }

    /// The line after its first `count` words.
    private static func remainder(of line: String, after count: Int) -> String {
        var rest = Substring(line)
        for _ in 0..<count {
            rest = rest.drop { $0.isWhitespace }.drop { !$0.isWhitespace }
        }
        return rest.drop { $0.isWhitespace || ".:-—–)".contains($0) }.trimmingWhitespace
    }

    /// A title after a heading starts with a capital, a digit or a quote ("Chapter 2. The Storm");
    /// lowercase words mean a sentence ("Part one of the plan was simple.").
    private static func startsTitle(_ rest: String, afterSeparator: Bool) -> Bool {
        guard let first = rest.first else { return true }
        if first.isLowercase { return false }
        if first.isUppercase || first.isNumber { return afterSeparator || Self.isTitleLike(rest) }
        return afterSeparator
    }

    /// Title case or all capitals: most longer words start with a capital.
    static func isTitleLike(_ text: String) -> Bool {
        let letters = text.filter(\.isLetter)
        guard !letters.isEmpty else { return false }
        if !letters.contains(where: \.isLowercase) { return true }
        let words = text.split(whereSeparator: { $0.isWhitespace || $0 == "-" }).map { $0.filter(\.isLetter) }
        let long = words.filter { $0.count >= 4 }
        guard !long.isEmpty else { return words.first?.first?.isUppercase ?? false }
        let capitalised = long.filter { $0.first?.isUppercase ?? false }.count
        return capitalised * 10 >= long.count * 6
    }

    /// The line trimmed of surrounding whitespace and of a trailing full stop.
    static func cleanLabel(_ line: String) -> String {
        var label = line.trimmingWhitespace
        while let last = label.last, last == "." || last == ":" || last == "," { label.removeLast() }
        return label.trimmingWhitespace
    }
}

extension StringProtocol {
    func trimmingCharacters(in set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}

enum RomanNumeral {
    /// The value of a Roman numeral written all upper- or all lowercase, if it is canonical and at
    /// most 200 (no story has more chapters; it keeps words like "MIX" or "DID" out).
    static func value<S: StringProtocol>(of token: S) -> Int? {
        guard !token.isEmpty, token.count <= 9 else { return nil }
        let upper = token.uppercased()
        guard String(token) == upper || String(token) == token.lowercased() else { return nil }
        let values: [Character: Int] = ["I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000]
        var total = 0
        let digits = upper.compactMap { values[$0] }
        guard digits.count == upper.count else { return nil }
        for (index, digit) in digits.enumerated() {
            if index + 1 < digits.count, digit < digits[index + 1] { total -= digit } else { total += digit }
        }
        guard (1...200).contains(total), format(total) == upper else { return nil }
        return total
    }

    static func format(_ value: Int) -> String {
        let table: [(Int, String)] = [(100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
        var rest = value
        var out = ""
        for (amount, numeral) in table {
            while rest >= amount {
                out += numeral
                rest -= amount
            }
        }
        return out
    }
}

enum NumberWords {
    static let units: Set<String> = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    static let teens: Set<String> = [
        "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
    ]
    static let tens: Set<String> = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
    static let unitOrdinals: Set<String> = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"]
    static let otherOrdinals: Set<String> = [
        "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
        "eighteenth", "nineteenth", "twentieth", "thirtieth", "fortieth", "fiftieth", "sixtieth", "seventieth",
        "eightieth", "ninetieth", "hundredth",
    ]

    /// "seven", "twelve", "forty", "twenty-one".
    static func isCardinal(_ word: String) -> Bool {
        if units.contains(word) || teens.contains(word) || tens.contains(word) || word == "hundred" { return true }
        let parts = word.split(separator: "-").map(String.init)
        return parts.count == 2 && tens.contains(parts[0]) && units.contains(parts[1])
    }

    /// "first", "twelfth", "twentieth", "twenty-first".
    static func isOrdinal(_ word: String) -> Bool {
        if unitOrdinals.contains(word) || otherOrdinals.contains(word) { return true }
        let parts = word.split(separator: "-").map(String.init)
        return parts.count == 2 && tens.contains(parts[0]) && unitOrdinals.contains(parts[1])
    }
}

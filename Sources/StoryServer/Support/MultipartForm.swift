import Foundation
import Vapor

/// A `multipart/form-data` body (RFC 7578), parsed from the collected bytes.
///
/// Parsed here rather than by MultipartKit 4.7.1, whose header parser indexes a 128-entry table
/// with the raw byte: one part header holding a byte ≥ 0x80 trapped and took the whole server
/// down. This parser looks at every byte through bounds-checked searches and either returns the
/// parts or throws `MultipartForm.Failure`; nothing a client sends can make it trap.
struct MultipartForm: Sendable {
    struct Part: Sendable {
        /// The form field's name (`Content-Disposition: form-data; name="…"`).
        var name: String
        var filename: String?
        var contentType: String?
        var body: [UInt8]

        var text: String { String(decoding: body, as: UTF8.self) }
    }

    struct Failure: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    static let maxParts = 64
    static let maxHeaderBytes = 8 << 10

    var parts: [Part]

    func part(named name: String) -> Part? {
        parts.first { $0.name == name }
    }

    /// The boundary a `multipart/form-data` content type names, if it names a usable one
    /// (RFC 2046: 1 to 70 characters from a fixed ASCII set).
    static func boundary(in contentType: HTTPMediaType?) -> String? {
        guard let contentType, contentType.type == "multipart", contentType.subType == "form-data",
              let boundary = contentType.parameters["boundary"], (1...70).contains(boundary.utf8.count),
              boundary.utf8.allSatisfy(isBoundaryByte) else { return nil }
        return boundary
    }

    init(parts: [Part]) {
        self.parts = parts
    }

    init(bytes: [UInt8], boundary: String) throws {
        let delimiter = Array("--\(boundary)".utf8)
        // The first delimiter opens the body or follows a preamble line.
        guard var position = Self.find(delimiter, in: bytes, from: 0),
              position == 0 || (position >= 2 && bytes[position - 2] == 13 && bytes[position - 1] == 10) else {
            throw Failure(description: "The form has no opening boundary.")
        }
        var parts: [Part] = []
        let closing = [13, 10] + delimiter
        while true {
            position += delimiter.count
            if Self.starts(with: [45, 45], in: bytes, at: position) { break }  // "--": the close delimiter
            while position < bytes.count, bytes[position] == 32 || bytes[position] == 9 { position += 1 }  // transport padding
            guard Self.starts(with: [13, 10], in: bytes, at: position) else {
                throw Failure(description: "A boundary line does not end with CRLF.")
            }
            position += 2
            guard parts.count < Self.maxParts else { throw Failure(description: "The form has more than \(Self.maxParts) parts.") }
            let headerEnd: Int
            if Self.starts(with: [13, 10], in: bytes, at: position) {
                headerEnd = position
            } else {
                guard let end = Self.find([13, 10, 13, 10], in: bytes, from: position) else {
                    throw Failure(description: "A part's headers do not end with a blank line.")
                }
                headerEnd = end + 2
            }
            guard headerEnd - position <= Self.maxHeaderBytes else { throw Failure(description: "A part's headers are too long.") }
            let headers = try Self.headers(bytes[position..<headerEnd])
            let bodyStart = headerEnd + 2
            guard let bodyEnd = Self.find(closing, in: bytes, from: bodyStart) else {
                throw Failure(description: "The form ends without its closing boundary.")
            }
            parts.append(try Self.part(headers: headers, body: Array(bytes[bodyStart..<bodyEnd])))
            position = bodyEnd + 2
        }
        self.parts = parts
    }

    // MARK: Parsing

    /// `name: value` lines, each ending in CRLF. Names are RFC 9110 tokens; values are read as
    /// UTF-8 (browsers send file names that way), with any invalid byte replaced.
    private static func headers(_ block: ArraySlice<UInt8>) throws -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        var lineStart = block.startIndex
        while lineStart < block.endIndex {
            guard let lineEnd = find([13, 10], in: Array(block[lineStart...]), from: 0).map({ lineStart + $0 }) else {
                throw Failure(description: "A part header does not end with CRLF.")
            }
            let line = block[lineStart..<lineEnd]
            guard let colon = line.firstIndex(of: 58), colon > line.startIndex,
                  line[line.startIndex..<colon].allSatisfy(isTokenByte) else {
                throw Failure(description: "A part header is not 'Name: value'.")
            }
            let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self)
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            headers.append((name, value))
            lineStart = lineEnd + 2
        }
        return headers
    }

    private static func part(headers: [(name: String, value: String)], body: [UInt8]) throws -> Part {
        func header(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
        guard let disposition = header("Content-Disposition") else {
            throw Failure(description: "A part has no Content-Disposition header.")
        }
        let parameters = dispositionParameters(disposition)
        guard let name = parameters["name"] else {
            throw Failure(description: "A part's Content-Disposition has no field name.")
        }
        return Part(name: name, filename: parameters["filename"], contentType: header("Content-Type"), body: body)
    }

    /// `form-data; name="file"; filename="a \"b\".txt"` → `["name": "file", "filename": "a \"b\".txt"]`.
    static func dispositionParameters(_ value: String) -> [String: String] {
        var parameters: [String: String] = [:]
        var scalars = Substring(value).unicodeScalars[...]
        // Skip the disposition type.
        while let first = scalars.first, first != ";" { scalars.removeFirst() }
        while !scalars.isEmpty {
            scalars.removeFirst()  // ";"
            while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
            var key = ""
            while let first = scalars.first, first != "=", first != ";" { key.unicodeScalars.append(scalars.removeFirst()) }
            var parameterValue = ""
            if scalars.first == "=" {
                scalars.removeFirst()
                if scalars.first == "\"" {
                    scalars.removeFirst()
                    while let next = scalars.first, next != "\"" {
                        scalars.removeFirst()
                        if next == "\\", let escaped = scalars.first {
                            parameterValue.unicodeScalars.append(escaped)
                            scalars.removeFirst()
                        } else {
                            parameterValue.unicodeScalars.append(next)
                        }
                    }
                    if !scalars.isEmpty { scalars.removeFirst() }  // closing quote
                }
                while let first = scalars.first, first != ";" {
                    parameterValue.unicodeScalars.append(first)
                    scalars.removeFirst()
                }
            }
            let trimmedKey = key.trimmingCharacters(in: .whitespaces).lowercased()
            if !trimmedKey.isEmpty, parameters[trimmedKey] == nil {
                parameters[trimmedKey] = parameterValue.trimmingCharacters(in: .whitespaces)
            }
        }
        return parameters
    }

    // MARK: Bytes

    /// The first offset ≥ `start` where `needle` occurs in `haystack`, by Knuth–Morris–Pratt:
    /// linear time, so a hostile body (all dashes, say) cannot make the search quadratic.
    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard start >= 0, !needle.isEmpty, haystack.count - start >= needle.count else { return nil }
        var fallback = [0] + Array(repeating: 0, count: needle.count - 1)
        var matched = 0
        for index in 1..<needle.count {
            while matched > 0, needle[index] != needle[matched] { matched = fallback[matched - 1] }
            if needle[index] == needle[matched] { matched += 1 }
            fallback[index] = matched
        }
        matched = 0
        for index in start..<haystack.count {
            while matched > 0, haystack[index] != needle[matched] { matched = fallback[matched - 1] }
            if haystack[index] == needle[matched] { matched += 1 }
            if matched == needle.count { return index - needle.count + 1 }
        }
        return nil
    }

    private static func starts(with prefix: [UInt8], in bytes: [UInt8], at position: Int) -> Bool {
        position >= 0 && position + prefix.count <= bytes.count && bytes[position..<(position + prefix.count)].elementsEqual(prefix)
    }

    /// RFC 9110 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): true
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    /// RFC 2046 `bchars`.
    private static func isBoundaryByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): true
        default: Array("'()+_,-./:=? ".utf8).contains(byte)
        }
    }
}

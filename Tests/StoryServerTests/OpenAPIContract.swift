import Foundation
import LanguageModels
import VendorHTTP
import Yams

/// The JSON values of replies and of the OpenAPI document: LanguageModels' `JSONValue`.
extension JSONValue {
    /// What `Yams.load` gives: Bool, Int, Double, String, arrays, mappings, NSNull.
    init(yaml: Any?) {
        switch yaml {
        case nil, is NSNull: self = .null
        case let value as Bool: self = .bool(value)
        case let value as Int: self = .number(Double(value))
        case let value as Double: self = .number(value)
        case let value as String: self = .string(value)
        case let value as [Any]: self = .array(value.map { JSONValue(yaml: $0) })
        case let value as [AnyHashable: Any]:
            self = .object(Dictionary(uniqueKeysWithValues: value.map { ("\($0.key.base)", JSONValue(yaml: $0.value)) }))
        default: self = .string("\(yaml!)")
        }
    }

    static func parse(_ data: Data) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// The JSON Schema type names this value satisfies ("integer" is also a "number").
    var typeNames: Set<String> {
        switch self {
        case .null: ["null"]
        case .bool: ["boolean"]
        case .number(let value): value.rounded() == value ? ["number", "integer"] : ["number"]
        case .string: ["string"]
        case .array: ["array"]
        case .object: ["object"]
        }
    }
}

/// The hand-written `Public/openapi.yaml`, and a validator for the subset of JSON Schema it
/// uses: `$ref`, `allOf`/`anyOf`/`oneOf`, `type` (with `"null"` for nullable), `enum`, `const`,
/// `required`, `properties`, `additionalProperties`, `propertyNames`, `items`, `minimum`/`maximum`,
/// `minLength`/`maxLength` and the `uuid` and `date-time` formats.
///
/// Strictness: an object schema that lists `properties` and says nothing of
/// `additionalProperties` is closed — a property the document does not name is reported, so a
/// field the server starts sending is documented along with it. A map says
/// `additionalProperties: <schema>`; an opaque object lists no properties.
struct OpenAPIContract {
    let root: JSONValue

    init(yaml: String) throws {
        root = JSONValue(yaml: try Yams.load(yaml: yaml))
    }

    static func load() throws -> OpenAPIContract {
        try OpenAPIContract(yaml: String(contentsOf: publicDirectory.appendingPathComponent("openapi.yaml"), encoding: .utf8))
    }

    // MARK: Operations

    struct Operation {
        var method: String
        var template: String
        var spec: [String: JSONValue]
        var name: String { "\(method.uppercased()) \(template)" }
    }

    /// Every documented operation, as "GET /api/stories/{id}".
    var operationNames: Set<String> {
        var names = Set<String>()
        for (template, item) in root["paths"]?.objectValue ?? [:] {
            for method in (item.objectValue ?? [:]).keys where Self.methods.contains(method) {
                names.insert("\(method.uppercased()) \(template)")
            }
        }
        return names
    }

    static let methods: Set<String> = ["get", "put", "post", "patch", "delete", "head", "options"]

    /// The operation a concrete request path falls under; literal segments beat `{parameters}`.
    func operation(method: String, path: String) -> Operation? {
        let method = method.lowercased()
        let segments = Self.segments(path)
        var best: (literals: Int, operation: Operation)?
        for (template, item) in root["paths"]?.objectValue ?? [:] {
            guard let spec = item[method]?.objectValue else { continue }
            let parts = Self.segments(template)
            guard parts.count == segments.count else { continue }
            var literals = 0
            var matches = true
            for (part, segment) in zip(parts, segments) {
                if part.hasPrefix("{") && part.hasSuffix("}") { continue }
                if part == segment { literals += 1 } else { matches = false; break }
            }
            if matches, literals > best?.literals ?? -1 {
                best = (literals, Operation(method: method, template: template, spec: spec))
            }
        }
        return best?.operation
    }

    private static func segments(_ path: String) -> [Substring] {
        (path.split(separator: "?", maxSplits: 1).first ?? "").split(separator: "/")
    }

    // MARK: Requests and replies

    /// Problems with a reply to `operation`: an undocumented status or content type, or a JSON
    /// body that its schema does not accept.
    func replyProblems(_ operation: Operation, status: Int, contentType: String?, body: Data) -> [String] {
        let where_ = "\(operation.name) → \(status)"
        guard let documented = operation.spec["responses"]?[String(status)] ?? operation.spec["responses"]?["default"] else {
            return ["\(where_): status \(status) is not documented"]
        }
        let response = resolve(documented)
        let media = contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard let content = response["content"]?.objectValue, !content.isEmpty else {
            return body.isEmpty ? [] : ["\(where_): documented without a body, but the reply has \(media ?? "one")"]
        }
        guard let media, let entry = content[media] else {
            return ["\(where_): content type \(contentType ?? "none") is not documented (\(content.keys.sorted().joined(separator: ", ")))"]
        }
        guard media == "application/json", let schema = entry["schema"] else { return [] }
        do {
            return validate(try JSONValue.parse(body), against: schema, at: where_)
        } catch {
            return ["\(where_): the body is not JSON: \(String(decoding: body.prefix(200), as: UTF8.self))"]
        }
    }

    /// Problems with a JSON request body that the server accepted.
    func requestProblems(_ operation: Operation, json: String) -> [String] {
        guard let schema = operation.spec["requestBody"].map(resolve)?["content"]?["application/json"]?["schema"] else {
            return ["\(operation.name): sent JSON, but no JSON request body is documented"]
        }
        guard let value = try? JSONValue.parse(Data(json.utf8)) else { return [] }
        return validate(value, against: schema, at: "\(operation.name) request")
    }

    // MARK: Schemas

    /// Follows `$ref`s ("#/components/...") to the object they name.
    func resolve(_ value: JSONValue) -> JSONValue {
        var value = value
        var seen = Set<String>()
        while let ref = value["$ref"]?.stringValue, ref.hasPrefix("#/"), seen.insert(ref).inserted {
            var target: JSONValue? = root
            for key in ref.dropFirst(2).split(separator: "/") {
                target = target?[key.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")]
            }
            guard let target else { return .object(["$unresolved": .string(ref)]) }
            value = target
        }
        return value
    }

    /// The schema with `$ref` resolved and `allOf` merged into one: properties and required
    /// fields are unioned, so a closed object made of parts knows every part's properties.
    func flatten(_ schema: JSONValue) -> [String: JSONValue] {
        var flat = resolve(schema).objectValue ?? [:]
        guard let parts = flat.removeValue(forKey: "allOf")?.arrayValue else { return flat }
        var properties = flat["properties"]?.objectValue ?? [:]
        var required = flat["required"]?.arrayValue ?? []
        for part in parts.map(flatten) {
            properties.merge(part["properties"]?.objectValue ?? [:]) { mine, _ in mine }
            required += part["required"]?.arrayValue ?? []
            for (key, value) in part where !["properties", "required"].contains(key) && flat[key] == nil {
                flat[key] = value
            }
        }
        if !properties.isEmpty { flat["properties"] = .object(properties) }
        if !required.isEmpty { flat["required"] = .array(required) }
        return flat
    }

    func validate(_ value: JSONValue, against schema: JSONValue, at path: String) -> [String] {
        let schema = flatten(schema)
        if let ref = schema["$unresolved"]?.stringValue { return ["\(path): $ref \(ref) does not resolve"] }
        var problems: [String] = []

        for key in ["anyOf", "oneOf"] {
            guard let branches = schema[key]?.arrayValue else { continue }
            let outcomes = branches.map { validate(value, against: $0, at: path) }
            let passing = outcomes.filter(\.isEmpty).count
            if passing == 0 {
                // Name what is wrong inside the one branch of the value's type (say, the object
                // rather than null), else just that nothing matched.
                let typed = zip(branches, outcomes).filter { admitsType(value, $0.0) }
                problems += typed.count == 1 ? typed[0].1 : ["\(path): matches none of the \(key) schemas"]
            } else if key == "oneOf" && passing > 1 {
                problems.append("\(path): matches \(passing) of the oneOf schemas")
            }
        }

        if let type = schema["type"] {
            let allowed = Self.allowedTypes(type)
            guard !allowed.isDisjoint(with: value.typeNames) else {
                return problems + ["\(path): expected \(allowed.sorted().joined(separator: " or ")), got \(Self.describe(value))"]
            }
        }
        if let options = schema["enum"]?.arrayValue, !options.contains(value) {
            problems.append("\(path): \(Self.describe(value)) is not one of \(options.map(Self.describe).joined(separator: ", "))")
        }
        if let constant = schema["const"], constant != value {
            problems.append("\(path): expected \(Self.describe(constant)), got \(Self.describe(value))")
        }

        switch value {
        case .number(let number):
            if let minimum = schema["minimum"]?.doubleValue, number < minimum { problems.append("\(path): \(number) is below \(minimum)") }
            if let maximum = schema["maximum"]?.doubleValue, number > maximum { problems.append("\(path): \(number) is above \(maximum)") }
        case .string(let string):
            if let minimum = schema["minLength"]?.doubleValue, Double(string.count) < minimum { problems.append("\(path): shorter than \(minimum)") }
            if let maximum = schema["maxLength"]?.doubleValue, Double(string.count) > maximum { problems.append("\(path): longer than \(maximum)") }
            switch schema["format"]?.stringValue {
            case "uuid" where UUID(uuidString: string) == nil:
                problems.append("\(path): \"\(string)\" is not a UUID")
            case "date-time" where Self.dateTime(string) == nil:
                problems.append("\(path): \"\(string)\" is not an RFC 3339 date-time")
            default: break
            }
        case .array(let items):
            if let itemSchema = schema["items"] {
                for (index, item) in items.enumerated() {
                    problems += validate(item, against: itemSchema, at: "\(path)[\(index)]")
                }
            }
        case .object(let members):
            problems += objectProblems(members, schema, at: path)
        case .null, .bool:
            break
        }
        return problems
    }

    private func admitsType(_ value: JSONValue, _ schema: JSONValue) -> Bool {
        guard let type = flatten(schema)["type"] else { return true }
        return !Self.allowedTypes(type).isDisjoint(with: value.typeNames)
    }

    /// `type: string` or `type: [string, "null"]` as a set of names.
    private static func allowedTypes(_ type: JSONValue) -> Set<String> {
        Set(type.arrayValue?.compactMap(\.stringValue) ?? type.stringValue.map { [$0] } ?? [])
    }

    private func objectProblems(_ members: [String: JSONValue], _ schema: [String: JSONValue], at path: String) -> [String] {
        var problems: [String] = []
        for case .string(let key) in schema["required"]?.arrayValue ?? [] where members[key] == nil {
            problems.append("\(path).\(key): required, but missing")
        }
        let properties = schema["properties"]?.objectValue ?? [:]
        if let names = schema["propertyNames"] {
            for key in members.keys.sorted() {
                problems += validate(.string(key), against: names, at: "\(path) key \"\(key)\"")
            }
        }
        for (key, member) in members.sorted(by: { $0.key < $1.key }) {
            if let property = properties[key] {
                problems += validate(member, against: property, at: "\(path).\(key)")
                continue
            }
            switch schema["additionalProperties"] {
            case .bool(false)?:
                problems.append("\(path).\(key): not documented (additionalProperties: false)")
            case .bool(true)?:
                break
            case let extra?:
                problems += validate(member, against: extra, at: "\(path).\(key)")
            case nil where !properties.isEmpty:
                problems.append("\(path).\(key): not documented (the schema lists \(properties.keys.sorted().joined(separator: ", ")))")
            case nil:
                break
            }
        }
        return problems
    }

    private static func dateTime(_ string: String) -> Date? {
        let plain = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions.insert(.withFractionalSeconds)
        return plain.date(from: string) ?? fractional.date(from: string)
    }

    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let bool): "\(bool)"
        case .number(let number): number.rounded() == number && abs(number) < 1e15 ? "\(Int(number))" : "\(number)"
        case .string(let string): "\"\(string.prefix(60))\""
        case .array(let items): "an array of \(items.count)"
        case .object(let members): "an object {\(members.keys.sorted().joined(separator: ", "))}"
        }
    }
}

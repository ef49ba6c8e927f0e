import Foundation
import VendorHTTP

/// A journey's story from a loopback model in OpenAI's wire format: part 1 and part 2 streamed
/// sentence by sentence, the outline's acts and beats as the structured answers the teller asks
/// for. Each part is about 240 words, more than a part needs: none is written again for being
/// short, and the teller may stop it at its words.
public enum JourneyModel {
    public static let key = "sk-journey-0123456789abcdef"
    public static let title = "The Lantern on the Fen"

    /// Ten sentences about `subject`, each naming the part, so a test can tell whose text it hears.
    /// Numbers of their own in every few words keep each sentence from saying most of another
    /// again, which the teller takes for a model going round in a loop.
    public static func prose(part: Int, subject: String) -> String {
        (1...10).map { n in
            let mark = part * 1000 + n * 10
            return "In part \(part) the \(subject) walked past stone \(mark + 1) and the quiet water \(mark + 2), sentence \(n) of the tale, and listened to bell \(mark + 3) closely."
        }.joined(separator: " ")
    }

    public static let partOne = prose(part: 1, subject: "lantern keeper")
    public static let partTwo = prose(part: 2, subject: "ferry woman")

    /// An outline's line for `key` (`part_3`, `act_1`): a sentence of its own for each, as a plan's
    /// lines must be (one that copies six words running of what the model was shown is refused).
    static func line(_ key: String) -> String {
        let number = Int(key.filter(\.isNumber)) ?? 0
        if key.hasPrefix("act") {
            let events = ["floods the fen", "turns to ice", "runs dry", "carries a boat away", "sings at night", "shows the way home"]
            return "In act \(number) the river \(events[number % events.count])."
        }
        let deeds = ["rows through the reeds", "finds a lantern", "hears a bell", "meets the keeper", "loses her oar", "crosses at dawn", "reaches the shore"]
        return "In \(key.replacingOccurrences(of: "_", with: " ")) the ferry woman \(deeds[number % deeds.count]) (\(number))."
    }

    public static let handler: LoopbackServer.Handler = { request in
        let json = request.json
        let schemaName = json?["response_format"]?["json_schema"]?["name"]?.stringValue
        // The model on this machine is always asked to stream, even for structured answers.
        func answer(_ text: String) -> LoopbackReply {
            json?["stream"] == true ? VendorWire.streamed(.openai, pieces: [text], pause: .zero) : VendorWire.success(.openai, answer: text, for: request)
        }
        switch schemaName {
        case "story_outline", "story_acts", "story_beats":
            // A line for each key the request's schema asks for (`part_3`, `act_1`), and a title.
            let asked = json?["response_format"]?["json_schema"]?["schema"]?["properties"]?.objectValue?.keys.sorted() ?? []
            var lines: [String: JSONValue] = [:]
            for key in asked {
                lines[key] = key == "title" ? .string(title) : .string(line(key))
            }
            return answer(JSONValue.object(lines).canonicalText)
        default:
            let user = json?["messages"]?.arrayValue?.last?["content"]?.stringValue ?? ""
            let text = user.contains("Write part 2") ? partTwo : partOne
            return VendorWire.streamed(.openai, pieces: VendorWire.pieces(of: text, every: 23), pause: .milliseconds(1))
        }
    }
}

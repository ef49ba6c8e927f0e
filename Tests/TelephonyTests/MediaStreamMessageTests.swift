import Foundation
@testable import Telephony
import Testing

@Suite("Twilio Media Streams messages")
struct MediaStreamMessageTests {
    @Test("Twilio's messages decode, counters as strings on the wire")
    func inbound() throws {
        #expect(MediaStreamInbound.decode(#"{"event":"connected","protocol":"Call","version":"1.0.0"}"#) == .connected(protocol: "Call", version: "1.0.0"))
        let start = MediaStreamInbound.decode("""
            {"event":"start","sequenceNumber":"1","start":{"accountSid":"AC1","streamSid":"MZ1","callSid":"CA1",
            "tracks":["inbound"],"mediaFormat":{"encoding":"audio/x-mulaw","sampleRate":8000,"channels":1},
            "customParameters":{"call_token":"abc"}},"streamSid":"MZ1"}
            """)
        #expect(start == .start(MediaStreamStart(streamSid: "MZ1", callSid: "CA1", accountSid: "AC1", customParameters: ["call_token": "abc"])))
        #expect(MediaStreamInbound.decode(#"{"event":"media","sequenceNumber":"3","media":{"track":"inbound","chunk":"1","timestamp":"5","payload":"/38A"},"streamSid":"MZ1"}"#)
                == .media(streamSid: "MZ1", track: "inbound", chunk: 1, timestamp: 5, payload: [0xFF, 0x7F, 0x00]))
        #expect(MediaStreamInbound.decode(#"{"event":"mark","sequenceNumber":"4","streamSid":"MZ1","mark":{"name":"r:100:1"}}"#) == .mark(streamSid: "MZ1", name: "r:100:1"))
        #expect(MediaStreamInbound.decode(#"{"event":"dtmf","streamSid":"MZ1","sequenceNumber":"5","dtmf":{"track":"inbound_track","digit":"1"}}"#) == .dtmf(streamSid: "MZ1", digit: "1"))
        #expect(MediaStreamInbound.decode(#"{"event":"stop","sequenceNumber":"6","stop":{"accountSid":"AC1","callSid":"CA1"},"streamSid":"MZ1"}"#) == .stop(streamSid: "MZ1", callSid: "CA1"))
    }

    @Test("an unknown event is .unknown, not an error; junk is nil")
    func unknown() {
        #expect(MediaStreamInbound.decode(#"{"event":"something_new","streamSid":"MZ1","whatever":{"a":1}}"#) == .unknown("something_new"))
        #expect(MediaStreamInbound.decode("not json") == nil)
        #expect(MediaStreamInbound.decode(#"{"no":"event"}"#) == nil)
        #expect(MediaStreamInbound.decode(#"{"event":"media","media":{"payload":"***"}}"#) == nil)
    }

    @Test("what we send: media, mark and clear, in Twilio's shape, a name with quotes escaped")
    func outbound() throws {
        #expect(MediaStreamOutbound.media(streamSid: "MZ1", payload: [0xFF, 0x7F, 0x00]).text == #"{"event":"media","streamSid":"MZ1","media":{"payload":"/38A"}}"#)
        #expect(MediaStreamOutbound.mark(streamSid: "MZ1", name: "a").text == #"{"event":"mark","streamSid":"MZ1","mark":{"name":"a"}}"#)
        #expect(MediaStreamOutbound.clear(streamSid: "MZ1").text == #"{"event":"clear","streamSid":"MZ1"}"#)
        let odd = MediaStreamOutbound.mark(streamSid: "MZ1", name: "say \"hi\"\n")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(odd.text.utf8)) as? [String: Any])
        #expect((object["mark"] as? [String: Any])?["name"] as? String == "say \"hi\"\n")
        #expect(MediaStreamOutbound.decode(odd.text) == odd)
    }
}

@Suite("Playback: frames, marks, what was heard")
struct PlaybackTests {
    @Test("reply audio is cut into 160-byte frames with a mark per chunk; the remainder waits for the next chunk, and is padded at the end")
    func framing() {
        let playback = Playback()
        let first = playback.frames(itemID: "r1", audio: [UInt8](repeating: 1, count: 400), streamSid: "MZ")
        #expect(first.count == 3)  // two frames and a mark
        guard case .mark(_, let name) = first.last else { Issue.record("no mark"); return }
        #expect(name.hasPrefix("r1:40:"))
        let second = playback.frames(itemID: "r1", audio: [UInt8](repeating: 2, count: 80), streamSid: "MZ")
        #expect(second.count == 2)
        #expect(second.first == .media(streamSid: "MZ", payload: [UInt8](repeating: 1, count: 80) + [UInt8](repeating: 2, count: 80)))
        #expect(playback.finishReply(streamSid: "MZ").isEmpty)
        _ = playback.frames(itemID: "r1", audio: [UInt8](repeating: 3, count: 10), streamSid: "MZ")
        let end = playback.finishReply(streamSid: "MZ")
        #expect(end.first == .media(streamSid: "MZ", payload: [UInt8](repeating: 3, count: 10) + [UInt8](repeating: 0xFF, count: 150)))
        #expect(playback.framesSent == 4)
    }

    @Test("an interruption truncates to the last echoed mark; marks after it are dropped; nothing to cut when all was heard")
    func interruption() {
        let playback = Playback()
        var names: [String] = []
        for _ in 0..<3 {
            for case .mark(_, let name) in playback.frames(itemID: "r1", audio: [UInt8](repeating: 1, count: 800), streamSid: "MZ") { names.append(name) }
        }
        #expect(playback.played(markNamed: names[0]) != nil)
        #expect(playback.played(markNamed: "never-sent") == nil)
        let cut = playback.interrupt()
        #expect(cut?.itemID == "r1")
        #expect(cut?.heardMilliseconds == 100)
        #expect(playback.pendingMarks == 0)
        #expect(playback.frames(itemID: "r1", audio: [UInt8](repeating: 1, count: 800), streamSid: "MZ").isEmpty)
        #expect(playback.interrupt() == nil)

        for case .mark(_, let name) in playback.frames(itemID: "r2", audio: [UInt8](repeating: 1, count: 160), streamSid: "MZ") {
            playback.played(markNamed: name)
        }
        #expect(playback.interrupt() == nil)
        #expect(playback.interruptions == 1)
    }
}

import Speech
import Testing

@Suite("A recogniser's loops")
struct TranscriptLoopTests {
    @Test("a sentence Whisper writes again and again is heard once; its cut-off next turn is dropped")
    func loopsCollapse() {
        #expect(TranscriptLoops.collapsed("What is no capital on France? What is no capital on France? What is no capital on France? What is")
                == "What is no capital on France?")
        #expect(TranscriptLoops.collapsed("But is no capital on France? What is no capital on France? What is no capital on France?")
                == "But is no capital on France? What is no capital on France?")
        #expect(TranscriptLoops.collapsed("Tell me a story. tell me a story!") == "Tell me a story.")
    }

    @Test("what a person says is left as said: two short words twice, different sentences, one sentence")
    func speechIsKept() {
        #expect(TranscriptLoops.collapsed("No. No. Not that one.") == "No. No. Not that one.")
        #expect(TranscriptLoops.collapsed("No. No. No. No.") == "No.")
        #expect(TranscriptLoops.collapsed("What is the capital of France? And of Spain?") == "What is the capital of France? And of Spain?")
        #expect(TranscriptLoops.collapsed("What is the capital of France") == "What is the capital of France")
        #expect(TranscriptLoops.collapsed("") == "")
        #expect(TranscriptLoops.collapsed("It is 3.5 km away. Go on.") == "It is 3.5 km away. Go on.")
    }
}

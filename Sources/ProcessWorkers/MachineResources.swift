import Foundation

/// How many model workers this machine can hold: one per core, as far as memory allows.
public enum MachineResources {
    /// `MemAvailable` from /proc/meminfo (what can be used without swapping), or nil elsewhere.
    public static func availableMemory() -> UInt64? {
        guard let info = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8),
              let line = info.split(separator: "\n").first(where: { $0.hasPrefix("MemAvailable:") }),
              let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ UInt64($0) })
        else { return nil }
        return kilobytes * 1024
    }

    /// Workers of `bytesPerWorker` each: one per core, fewer when the memory available now
    /// would not hold them (at least one).
    public static func workerCount(bytesPerWorker: UInt64, cores: Int = ProcessInfo.processInfo.activeProcessorCount,
                                   available: UInt64? = availableMemory()) -> Int {
        guard let available else { return max(1, cores) }
        return max(1, min(cores, Int(available / max(bytesPerWorker, 1))))
    }
}

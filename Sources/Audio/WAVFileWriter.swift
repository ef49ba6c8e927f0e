import Foundation

/// Streams mono 16-bit PCM to a WAV file on disk with flat memory; the header's sizes are fixed at `finish()`.
///
/// The header reserves a 28-byte `JUNK` chunk (EBU Tech 3306). A file that outgrows the 4 GiB a
/// RIFF size can hold (about 13.5 hours at 44.1 kHz) becomes RF64 at `finish()` by turning that
/// chunk into `ds64`; smaller files stay plain RIFF/WAVE, which every reader skips `JUNK` in.
/// Not thread-safe: one task appends.
public final class WAVFileWriter {
    public let url: URL
    public let sampleRate: Int
    public private(set) var samplesWritten: Int = 0

    private var handle: FileHandle?
    private var pending = Data()
    /// Bytes buffered before a write: big enough to make syscalls rare, small enough not to matter.
    private let flushThreshold = 256 * 1024
    /// Writes RF64 whatever the size, so tests can exercise that layout without 4 GiB of audio.
    var forceRF64 = false

    static let headerSize = 80
    private static let riffSizeOffset: UInt64 = 4
    private static let junkOffset: UInt64 = 12
    private static let dataSizeOffset: UInt64 = 76

    public init(url: URL, sampleRate: Int) throws {
        guard sampleRate > 0 else { throw AudioError.invalidSampleRate(sampleRate) }
        let directory = url.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw AudioError.outputDirectoryMissing(directory)
        }
        guard FileManager.default.createFile(atPath: url.path, contents: Self.header(sampleRate: sampleRate)) else {
            throw AudioError.io(url, "the file could not be created (is the folder writable?)")
        }
        do {
            handle = try FileHandle(forWritingTo: url)
            try handle?.seekToEnd()
        } catch {
            throw AudioError.io(url, error.localizedDescription)
        }
        self.url = url
        self.sampleRate = sampleRate
        pending.reserveCapacity(flushThreshold + 64 * 1024)
    }

    deinit {
        try? handle?.close()
    }

    public var durationSeconds: Double { Double(samplesWritten) / Double(sampleRate) }

    public func append(_ samples: [Int16]) throws {
        guard handle != nil else { throw AudioError.writerFinished(url) }
        #if _endian(little)
        samples.withUnsafeBytes { pending.append(contentsOf: $0) }
        #else
        samples.map(\.littleEndian).withUnsafeBytes { pending.append(contentsOf: $0) }
        #endif
        samplesWritten += samples.count
        if pending.count >= flushThreshold { try flush() }
    }

    /// Appends `audio`, which must be at this file's sample rate.
    public func append(_ audio: PCMAudio) throws {
        guard audio.sampleRate == sampleRate else {
            throw AudioError.sampleRateMismatch(expected: sampleRate, actual: audio.sampleRate)
        }
        try append(audio.samples)
    }

    public func appendSilence(seconds: Double) throws {
        guard handle != nil else { throw AudioError.writerFinished(url) }
        var remaining = max(0, Int((seconds * Double(sampleRate)).rounded()))
        samplesWritten += remaining
        while remaining > 0 {
            let chunk = min(remaining, flushThreshold / 2)
            pending.append(Data(count: chunk * 2))
            remaining -= chunk
            if pending.count >= flushThreshold { try flush() }
        }
    }

    /// Writes what is buffered and the final sizes into the header, then closes the file.
    /// Calling it again does nothing.
    public func finish() throws {
        guard let handle else { return }
        defer {
            try? handle.close()
            self.handle = nil
        }
        do {
            try flush()
            let dataBytes = UInt64(samplesWritten) * 2
            let riffBytes = UInt64(Self.headerSize) - 8 + dataBytes
            if riffBytes > UInt64(UInt32.max) || forceRF64 {
                try patch(handle, at: 0, Array("RF64".utf8) + le(UInt32.max))
                var ds64 = Array("ds64".utf8) + le(UInt32(28))
                ds64 += le(riffBytes) + le(dataBytes) + le(UInt64(samplesWritten)) + le(UInt32(0))
                try patch(handle, at: Self.junkOffset, ds64)
                try patch(handle, at: Self.dataSizeOffset, le(UInt32.max))
            } else {
                try patch(handle, at: Self.riffSizeOffset, le(UInt32(riffBytes)))
                try patch(handle, at: Self.dataSizeOffset, le(UInt32(dataBytes)))
            }
            try handle.synchronize()
        } catch let error as AudioError {
            throw error
        } catch {
            throw AudioError.io(url, error.localizedDescription)
        }
    }

    private func flush() throws {
        guard let handle, !pending.isEmpty else { return }
        do {
            try handle.write(contentsOf: pending)
        } catch {
            throw AudioError.io(url, error.localizedDescription)
        }
        pending.removeAll(keepingCapacity: true)
    }

    private func patch(_ handle: FileHandle, at offset: UInt64, _ bytes: [UInt8]) throws {
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: Data(bytes))
    }

    /// RIFF/WAVE, a `JUNK` chunk reserving room for `ds64`, `fmt ` for mono 16-bit PCM, and `data`
    /// with sizes that `finish()` fills in.
    static func header(sampleRate: Int) -> Data {
        var bytes = Array("RIFF".utf8) + le(UInt32(0)) + Array("WAVE".utf8)
        bytes += Array("JUNK".utf8) + le(UInt32(28)) + [UInt8](repeating: 0, count: 28)
        let canonical = WAV.header(sampleRate: sampleRate, sampleCount: 0)
        bytes += canonical[12..<44]  // "fmt " chunk and the "data" chunk header
        return Data(bytes)
    }
}

private func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value.littleEndian) { Array($0) }
}

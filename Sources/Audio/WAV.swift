import Foundation

/// RIFF/WAVE reading and writing for 16-bit PCM, the format every local engine emits.
public enum WAV {
    public enum DecodeError: Error, CustomStringConvertible, Equatable {
        case notRIFF
        case missingChunk(String)
        case unsupportedFormat(String)

        public var description: String {
            switch self {
            case .notRIFF: "not a WAV file (no RIFF/WAVE header)"
            case .missingChunk(let name): "WAV file has no '\(name)' chunk"
            case .unsupportedFormat(let what): "unsupported WAV format: \(what)"
            }
        }
    }

    /// The 44-byte header of a canonical mono 16-bit PCM WAV holding `sampleCount` samples.
    public static func header(sampleRate: Int, sampleCount: Int) -> [UInt8] {
        let dataBytes = UInt32(clamping: sampleCount * 2)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(44)
        bytes += Array("RIFF".utf8); bytes.appendLE(UInt32(36) &+ dataBytes)
        bytes += Array("WAVE".utf8)
        bytes += Array("fmt ".utf8); bytes.appendLE(UInt32(16))
        bytes.appendLE(UInt16(1))  // PCM
        bytes.appendLE(UInt16(1))  // mono
        bytes.appendLE(UInt32(sampleRate))
        bytes.appendLE(UInt32(sampleRate * 2))  // byte rate
        bytes.appendLE(UInt16(2))  // block align
        bytes.appendLE(UInt16(16))  // bits per sample
        bytes += Array("data".utf8); bytes.appendLE(dataBytes)
        return bytes
    }

    public static func encode(_ audio: PCMAudio) -> Data {
        var data = Data(header(sampleRate: audio.sampleRate, sampleCount: audio.samples.count))
        audio.samples.withUnsafeBufferPointer { data.append(UnsafeBufferPointer(start: UnsafeRawPointer($0.baseAddress)?.assumingMemoryBound(to: UInt8.self), count: $0.count * 2)) }
        return data
    }

    /// Decodes 8/16/24/32-bit integer or 32-bit float PCM, mixing channels down to mono.
    /// Tolerates the 0xFFFFFFFF sizes engines write when streaming to a pipe, and reads RF64.
    public static func decode(_ data: Data) throws -> PCMAudio {
        let bytes = [UInt8](data)
        // RF64 (EBU Tech 3306) is RIFF with 64-bit sizes in a ds64 chunk; the data runs to the end.
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8) || bytes[0..<4].elementsEqual("RF64".utf8),
              bytes[8..<12].elementsEqual("WAVE".utf8) else {
            throw DecodeError.notRIFF
        }
        var offset = 12
        var format: (tag: Int, channels: Int, rate: Int, bits: Int)?
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let declared = Int(bytes.readLE(UInt32.self, at: offset + 4))
            let body = offset + 8
            if id == "fmt " {
                guard body + 16 <= bytes.count else { throw DecodeError.missingChunk("fmt ") }
                var tag = Int(bytes.readLE(UInt16.self, at: body))
                if tag == 0xFFFE, declared >= 40, body + 26 <= bytes.count {  // WAVE_FORMAT_EXTENSIBLE: sub-format GUID
                    tag = Int(bytes.readLE(UInt16.self, at: body + 24))
                }
                format = (tag, Int(bytes.readLE(UInt16.self, at: body + 2)), Int(bytes.readLE(UInt32.self, at: body + 4)),
                          Int(bytes.readLE(UInt16.self, at: body + 14)))
            } else if id == "data" {
                guard let format else { throw DecodeError.missingChunk("fmt ") }
                let end = declared == 0 || body + declared > bytes.count ? bytes.count : body + declared
                return try samples(bytes[body..<end], format: format)
            }
            offset = body + declared + (declared & 1)
            if declared == 0xFFFF_FFFF { break }
        }
        throw DecodeError.missingChunk("data")
    }

    private static func samples(_ raw: ArraySlice<UInt8>, format: (tag: Int, channels: Int, rate: Int, bits: Int)) throws -> PCMAudio {
        guard format.channels >= 1, format.rate > 0 else { throw DecodeError.unsupportedFormat("\(format.channels) channels at \(format.rate) Hz") }
        let width = format.bits / 8
        guard (format.tag == 1 && [1, 2, 3, 4].contains(width)) || (format.tag == 3 && width == 4) else {
            throw DecodeError.unsupportedFormat("format tag \(format.tag), \(format.bits) bits")
        }
        let frameBytes = width * format.channels
        let frames = raw.count / frameBytes
        if format.tag == 1, width == 2, format.channels == 1 {  // the common case: one bulk copy
            let out = [Int16](unsafeUninitializedCapacity: frames) { buffer, count in
                raw.withUnsafeBytes { bytes in
                    for i in 0..<frames { buffer[i] = Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: 2 * i, as: Int16.self)) }
                }
                count = frames
            }
            return PCMAudio(sampleRate: format.rate, samples: out)
        }
        let buffer = Array(raw)
        var out = [Int16](repeating: 0, count: frames)
        for frame in 0..<frames {
            var sum = 0.0
            for channel in 0..<format.channels {
                let at = frame * frameBytes + channel * width
                sum += sampleValue(buffer, at: at, width: width, float: format.tag == 3)
            }
            let mono = sum / Double(format.channels)
            out[frame] = Int16(clamping: Int((mono * 32768).rounded()))
        }
        return PCMAudio(sampleRate: format.rate, samples: out)
    }

    /// One sample scaled to [-1, 1].
    private static func sampleValue(_ b: [UInt8], at i: Int, width: Int, float: Bool) -> Double {
        switch (width, float) {
        case (1, _): return (Double(b[i]) - 128) / 128
        case (2, _): return Double(Int16(bitPattern: UInt16(b[i]) | UInt16(b[i + 1]) << 8)) / 32768
        case (3, _):
            let v = Int32(bitPattern: (UInt32(b[i]) << 8 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 24)) >> 8
            return Double(v) / 8_388_608
        case (4, true): return Double(Float(bitPattern: b.readLE(UInt32.self, at: i)))
        default: return Double(Int32(bitPattern: b.readLE(UInt32.self, at: i))) / 2_147_483_648
        }
    }
}

extension Array where Element == UInt8 {
    mutating func appendLE<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }

    func readLE<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
        var value: T = 0
        for i in 0..<MemoryLayout<T>.size { value |= T(self[offset + i]) << (8 * i) }
        return value
    }
}

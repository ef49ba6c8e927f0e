import Foundation

/// G.711 μ-law, the telephone network's 8 kHz, 8-bit companding (what Twilio's Media Streams
/// and the OpenAI Realtime API's `g711_ulaw` carry). Each byte is one sample: a sign, a 3-bit
/// segment and a 4-bit step, inverted as the standard says, so 0xFF is silence.
public enum MuLaw {
    /// The telephone network's sample rate.
    public static let sampleRate = 8000
    /// One byte of silence (zero encodes as 0xFF).
    public static let silence: UInt8 = 0xFF

    private static let bias = 0x84
    private static let clip = 32635

    public static func encode(_ sample: Int16) -> UInt8 {
        var value = Int(sample)
        let sign = value < 0 ? 0x80 : 0
        if value < 0 { value = -value }
        value = min(value, clip) + bias
        // The segment is the position of the highest set bit above bit 7 (value ≥ 0x84 always).
        var exponent = 7
        var mask = 0x4000
        while exponent > 0, value & mask == 0 {
            exponent -= 1
            mask >>= 1
        }
        let mantissa = (value >> (exponent + 3)) & 0x0F
        return ~UInt8(sign | (exponent << 4) | mantissa)
    }

    public static func decode(_ byte: UInt8) -> Int16 {
        let value = ~byte
        let exponent = Int((value >> 4) & 0x07)
        let mantissa = Int(value & 0x0F)
        let magnitude = (((mantissa << 3) + bias) << exponent) - bias
        return Int16(value & 0x80 != 0 ? -magnitude : magnitude)
    }

    public static func encode(_ samples: [Int16]) -> [UInt8] { samples.map(encode) }

    public static func decode(_ bytes: some Sequence<UInt8>) -> [Int16] { bytes.map(decode) }

    /// Any PCM audio as 8 kHz μ-law (resampled first when its rate differs).
    public static func encode(_ audio: PCMAudio) -> [UInt8] {
        encode(Resampler.resample(audio, to: sampleRate).samples)
    }

    /// μ-law bytes as 8 kHz PCM.
    public static func audio(_ bytes: some Sequence<UInt8>) -> PCMAudio {
        PCMAudio(sampleRate: sampleRate, samples: decode(bytes))
    }
}

/// Cairo's frames (BGRA bytes) as planar YUV 4:2:0 with BT.709 limited-range coefficients, the
/// colours players assume for HD video.
///
/// Converting here, once per drawn frame, instead of in ffmpeg for every frame sent, means the
/// repeated frames of a still chat cost only their bytes, and those bytes are 1.5 per pixel
/// instead of 4.
package enum YUV420 {
    /// Bytes in a frame of `width` × `height` (both even).
    package static func size(width: Int, height: Int) -> Int { width * height * 3 / 2 }

    /// Writes the Y plane, then U (Cb), then V (Cr), each chroma sample the mean of a 2×2 block.
    package static func convert(bgra: UnsafeRawBufferPointer, stride: Int, width: Int, height: Int, into yuv: UnsafeMutableRawBufferPointer) {
        let source = bgra.bindMemory(to: UInt8.self)
        let out = yuv.bindMemory(to: UInt8.self)
        let chromaWidth = width / 2
        let uPlane = width * height
        let vPlane = uPlane + chromaWidth * (height / 2)
        for y in 0..<height {
            let row = y * stride
            let luma = y * width
            for x in 0..<width {
                let pixel = row + x * 4
                let b = Int(source[pixel]), g = Int(source[pixel + 1]), r = Int(source[pixel + 2])
                out[luma + x] = UInt8(truncatingIfNeeded: ((47 * r + 157 * g + 16 * b + 128) >> 8) + 16)
            }
        }
        for y in 0..<(height / 2) {
            let top = 2 * y * stride
            let bottom = top + stride
            for x in 0..<chromaWidth {
                let left = x * 8
                let b = Int(source[top + left]) + Int(source[top + left + 4]) + Int(source[bottom + left]) + Int(source[bottom + left + 4])
                let g = Int(source[top + left + 1]) + Int(source[top + left + 5]) + Int(source[bottom + left + 1]) + Int(source[bottom + left + 5])
                let r = Int(source[top + left + 2]) + Int(source[top + left + 6]) + Int(source[bottom + left + 2]) + Int(source[bottom + left + 6])
                // Sums of four: the shift is 10, not 8.
                out[uPlane + y * chromaWidth + x] = UInt8(truncatingIfNeeded: ((-26 * r - 86 * g + 112 * b + 512) >> 10) + 128)
                out[vPlane + y * chromaWidth + x] = UInt8(truncatingIfNeeded: ((112 * r - 102 * g - 10 * b + 512) >> 10) + 128)
            }
        }
    }
}

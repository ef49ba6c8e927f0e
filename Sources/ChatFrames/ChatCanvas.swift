import CCairoPango
import ChatStories

/// A Cairo image surface and its drawing context, with the few shapes and texts a chat needs.
///
/// Not thread-safe (Cairo contexts are not): one canvas belongs to one export.
package final class ChatCanvas {
    package let width: Int
    package let height: Int
    let surface: OpaquePointer
    let cairo: OpaquePointer

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        cairo = cairo_create(surface)
    }

    deinit {
        cairo_destroy(cairo)
        cairo_surface_destroy(surface)
    }

    /// The pixels, premultiplied ARGB32 in native byte order (B, G, R, A bytes on x86 and ARM),
    /// `width * 4` bytes a row.
    package func withPixels<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        return try body(UnsafeRawBufferPointer(start: data, count: stride * height))
    }

    package var stride: Int { Int(cairo_image_surface_get_stride(surface)) }

    func setColor(_ color: RGBColor, alpha: Double = 1) {
        cairo_set_source_rgba(cairo, color.red, color.green, color.blue, alpha)
    }

    func fill(x: Double, y: Double, width: Double, height: Double, color: RGBColor, alpha: Double = 1) {
        setColor(color, alpha: alpha)
        cairo_rectangle(cairo, x, y, width, height)
        cairo_fill(cairo)
    }

    func roundedRectangle(x: Double, y: Double, width: Double, height: Double, radius: Double, color: RGBColor, alpha: Double = 1) {
        let r = min(radius, width / 2, height / 2)
        cairo_new_sub_path(cairo)
        cairo_arc(cairo, x + width - r, y + r, r, -Double.pi / 2, 0)
        cairo_arc(cairo, x + width - r, y + height - r, r, 0, Double.pi / 2)
        cairo_arc(cairo, x + r, y + height - r, r, Double.pi / 2, Double.pi)
        cairo_arc(cairo, x + r, y + r, r, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cairo)
        setColor(color, alpha: alpha)
        cairo_fill(cairo)
    }

    func circle(centerX: Double, centerY: Double, radius: Double, color: RGBColor, alpha: Double = 1) {
        cairo_new_sub_path(cairo)
        cairo_arc(cairo, centerX, centerY, radius, 0, 2 * Double.pi)
        setColor(color, alpha: alpha)
        cairo_fill(cairo)
    }

    /// Everything drawn inside `body` is clipped to the rectangle.
    func clipped(x: Double, y: Double, width: Double, height: Double, _ body: () -> Void) {
        cairo_save(cairo)
        cairo_rectangle(cairo, x, y, width, height)
        cairo_clip(cairo)
        body()
        cairo_restore(cairo)
    }

    /// A Pango layout of `text` in this canvas's context, wrapped at `wrapWidth` (nil: one line).
    func layout(_ text: String, font: TextStyle, wrapWidth: Double?) -> TextLayout {
        TextLayout(cairo: cairo, text: text, style: font, wrapWidth: wrapWidth)
    }
}

/// A font: family, size in pixels, weight.
struct TextStyle: Hashable {
    var pixels: Double
    var bold = false

    /// Sans (DejaVu Sans on Debian) with Noto Color Emoji found by fontconfig for emoji.
    static let family = "Sans"
}

/// Laid-out text: its size, and drawing it at a point.
final class TextLayout {
    let layout: OpaquePointer
    private let cairo: OpaquePointer

    init(cairo: OpaquePointer, text: String, style: TextStyle, wrapWidth: Double?) {
        self.cairo = cairo
        layout = pango_cairo_create_layout(cairo)
        let description = pango_font_description_new()!
        pango_font_description_set_family(description, TextStyle.family)
        pango_font_description_set_absolute_size(description, style.pixels * Double(PANGO_SCALE))
        pango_font_description_set_weight(description, style.bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        pango_layout_set_font_description(layout, description)
        pango_font_description_free(description)
        if let wrapWidth {
            pango_layout_set_width(layout, Int32(wrapWidth * Double(PANGO_SCALE)))
            // Words wrap; a word longer than the line breaks between characters.
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        }
        pango_layout_set_text(layout, text, -1)
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(layout))
    }

    /// The ink-independent (logical) size in pixels.
    var size: (width: Double, height: Double) {
        var width: Int32 = 0
        var height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        return (Double(width), Double(height))
    }

    var lineCount: Int { Int(pango_layout_get_line_count(layout)) }

    /// Where each line starts, as a UTF-8 offset into the text.
    var lineStarts: [Int] {
        (0..<pango_layout_get_line_count(layout)).map { Int(pango_layout_get_line_readonly(layout, $0)?.pointee.start_index ?? 0) }
    }

    func draw(x: Double, y: Double, color: RGBColor, alpha: Double = 1) {
        cairo_move_to(cairo, x, y)
        cairo_set_source_rgba(cairo, color.red, color.green, color.blue, alpha)
        pango_cairo_show_layout(cairo, layout)
    }
}

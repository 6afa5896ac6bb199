import Foundation

/// WCAG 2 contrast between two `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa` colours. A translucent
/// foreground is blended over the background first, as the browser paints it.
public enum ColorContrast {
    /// WCAG AA for body text.
    public static let minimum = 4.5

    public static func ratio(_ foreground: String, on background: String) -> Double? {
        guard let back = rgba(background), let front = rgba(foreground) else { return nil }
        let blended = (0..<3).map { front.alpha * front.rgb[$0] + (1 - front.alpha) * back.rgb[$0] }
        let lighter = max(luminance(blended), luminance(back.rgb))
        let darker = min(luminance(blended), luminance(back.rgb))
        return (lighter + 0.05) / (darker + 0.05)
    }

    private static func luminance(_ rgb: [Double]) -> Double {
        let linear = rgb.map { $0 <= 0.04045 ? $0 / 12.92 : pow(($0 + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    }

    /// Channels in 0…1; nil unless the text is a hex colour.
    private static func rgba(_ hex: String) -> (rgb: [Double], alpha: Double)? {
        guard hex.hasPrefix("#") else { return nil }
        var digits = Array(hex.dropFirst())
        if digits.count == 3 || digits.count == 4 { digits = digits.flatMap { [$0, $0] } }
        guard digits.count == 6 || digits.count == 8 else { return nil }
        var channels: [Double] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let value = UInt8(String(digits[index...index + 1]), radix: 16) else { return nil }
            channels.append(Double(value) / 255)
        }
        return (Array(channels.prefix(3)), channels.count == 4 ? channels[3] : 1)
    }
}

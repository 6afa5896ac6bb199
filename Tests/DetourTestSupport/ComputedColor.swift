import Foundation

/// Colours as a browser reports them (`getComputedStyle`), in the hex form site.yml uses.
public enum ComputedColor {
    /// `rgb(20, 24, 29)` → `#14181d`; nil for anything else (`rgba`, a missing element).
    public static func hex(_ color: String?) -> String? {
        guard let color, color.hasPrefix("rgb(") else { return nil }
        let channels = color.dropFirst(4).dropLast().split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard channels.count == 3 else { return nil }
        return "#" + channels.map { String(format: "%02x", $0) }.joined()
    }
}

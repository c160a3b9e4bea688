import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SurveyValues

/// ODK's geographic functions (xforms-spec, "Geographic Functions") over geopoints typed as
/// `lat lon [alt [acc]]`, and geotraces and geoshapes as such points separated by `;`.
/// Altitude is ignored. The formulas and the Earth's radius (6,378,100 m) are JavaRosa's
/// (`GeoUtils`), so a form computes here what it computes in Collect.
extension FormFunction {
    static let geography: [FormFunction] = [
        // Square metres inside a geoshape, or inside the polygon of a repeat's geopoints.
        FormFunction(name: "area", aliases: ["enclosed-area"], arity: 1...1) { call in
            guard let points = points(call.nodes(0)) else { return .number(.nan) }
            return .number(area(points))
        },
        // Metres along a geotrace or geoshape, a repeat's geopoints, or the points given.
        FormFunction(name: "distance", arity: 1...unbounded) { call in
            guard let points = points(call.allNodes()) else { return .number(.nan) }
            return .number(distance(points))
        },
    ]

    static let earthRadius = 6_378_100.0

    /// The points of one trace or shape (a single value with `;`), or of several geopoints;
    /// nil when any is not `lat lon …` with latitude and longitude in range.
    static func points(_ values: [FormValue]) -> [(latitude: Double, longitude: Double)]? {
        var result: [(latitude: Double, longitude: Double)] = []
        for value in values {
            let text = value.string.trimmingWhitespace()
            if text.isEmpty { continue }
            for point in text.split(separator: ";") {
                let parts = point.split(whereSeparator: \.isWhitespace)
                guard parts.count >= 2, parts.count <= 4, let lat = Double(parts[0]), let lon = Double(parts[1]),
                      (-90...90).contains(lat), (-180...180).contains(lon) else { return nil }
                result.append((lat, lon))
            }
        }
        return result
    }

    /// A flat projection around the first point, summed as triangles (JavaRosa's method: close
    /// enough for a field or a forest plot).
    static func area(_ points: [(latitude: Double, longitude: Double)]) -> Double {
        guard points.count >= 3 else { return 0 }
        let circumference = 2 * Double.pi * earthRadius
        let origin = points[0]
        let xy = points.dropFirst().map { p in
            (x: (p.longitude - origin.longitude) * circumference * cos(p.latitude * .pi / 180) / 360,
             y: (p.latitude - origin.latitude) * circumference / 360)
        }
        var sum = 0.0
        for i in xy.indices.dropFirst() { sum += (xy[i - 1].y * xy[i].x - xy[i - 1].x * xy[i].y) / 2 }
        return Swift.abs(sum)
    }

    /// Great-circle legs (spherical law of cosines), summed.
    static func distance(_ points: [(latitude: Double, longitude: Double)]) -> Double {
        guard points.count >= 2 else { return 0 }
        var total = 0.0
        for i in points.indices.dropFirst() {
            let (a, b) = (points[i - 1], points[i])
            let φ1 = a.latitude * .pi / 180, φ2 = b.latitude * .pi / 180, Δλ = (a.longitude - b.longitude) * .pi / 180
            let c = sin(φ1) * sin(φ2) + cos(φ1) * cos(φ2) * cos(Δλ)
            total += acos(min(1, max(-1, c))) * earthRadius
        }
        return total
    }
}

import SurveyValues
/// The IV of each file of an ODK encrypted submission (Collect's `EncryptedFormInformation`,
/// Briefcase's `CipherFactory`): a 16-byte seed, MD5 of the instanceID's UTF-8 and the AES
/// key; before each file i (media in the manifest's order, then the submission itself),
/// byte i mod 16 of the seed goes up by one (wrapping, as a Java byte does), and the seed as
/// it then stands is the IV. The changes add up: file 16 changes byte 0 a second time.
struct ODKIVSequence {
    private var seed: [UInt8]
    private var counter = 0

    init(instanceID: String, key: [UInt8]) throws {
        seed = try CryptoDigest.md5(Array(instanceID.utf8) + key)
    }

    /// The IV of the next file.
    mutating func next() -> [UInt8] {
        seed[counter % seed.count] &+= 1
        counter += 1
        return seed
    }
}

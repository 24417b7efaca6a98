import AuthBridgeCore
import Testing

/// Private keys of other sizes than the 2048 bits AuthBridge generates, made by node:crypto
/// (OpenSSL: `generateKeyPairSync('rsa', { modulusLength })`, the primes from its JWK export),
/// sign what OpenSSL signed (`sign('sha256', …)`), byte for byte: primes of 17, 24 and 32 limbs
/// take the Montgomery kernels for any limb count (an odd one included), where RSA-2048's
/// 16-limb primes take the ones specialized for 16.
@Suite struct RSAPrivateKeySizeTests {
    struct Vector {
        let bits: Int
        let primeLimbs: Int
        let p: String
        let q: String
        let signature: String
    }

    static let signingInput = Array("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhZGEifQ".utf8)

    static let vectors = [
        Vector(
            bits: 2176, primeLimbs: 17,
            p: "6Wrtv4h_83Wy1uUs6-u2GLUI0BhbBHaJIY9_q29-udpF8h7v_ITVGnedLKqrlGCTjR5kkwGHdD4oxeN9lOsadKCr_JtPSS0D"
                + "mRMDSqH4XgoJ_EP08AJzMDpi031CUcZWgSkga3X1JTCSiPoaM7vtJU9QWeqtjlnD2Ald_2XJdnbmNH-u0_aJ-Q",
            q: "5hqf8Rf3M8QgvLI7qqlu50XddvzSYNnjxZvo80cwUcM5A67o7pgj5V9ybhM8Kw250mMBtkOKZ3_eHxPK-l0G803QxpIqbalk"
                + "oN6dAp6Y2tcJ1zuf-Yo2vV374NcL-jcxspuwHGt23e-w9RMM6cuuWOZl8v_P0_nWA3pICLvz5_CRMyp-WF152w",
            signature:
                "N3_49_KbhknZehkAgtYmJ_Ca_XW-Op1x9pE4hn_YY0M6UU0Z2AtVTATBDG6coAmZlMO_SvxOFt9OMBH5EoM5m7mnjpkq57yL"
                + "Y5UL3b1oLpRo0bfLjhYXhYRSLCrMrbA-mvNh02xLygiRjwMEyDOUyx_szlCblxh_2oX3G9GjW8Hp2TyFOZQA9jtq_eO3lr52"
                + "qUJO21chSKMBVXn7p531LcR_6y12U4jpso81aT0fMO_FXVjYJGsav5kfeANlA1XfF3A2XEvLrMVNwBth5VGeEPq-epJix2N3"
                + "NRZXiW-U1TjcRwsJf5kv487SUaBLkTguceKA2b8q7YiOSJlyC7MZgGe0gbc6YsRRwyaMmDANllU"),
        Vector(
            bits: 3072, primeLimbs: 24,
            p: "_RficLcJFfRZAkKWI3vuSL_QKSgGEkICSJ51G55Ow0ABHQ1ocEZMtprtKyDgB6Y25P7yLaesd4DnEQiZbd_FW4Q1uE2FMsA2"
                + "0WeCAwFqGrCKv2y2_ONGrVyd0rmD6BBFnFvdEHNfVjGIrxnMtl19xBiXIB_RXqemNAv-huFj9wSlxEhNhpx23e8RKy_vck4V"
                + "_SJ3EQw1xEpr5Z1tp1xUTmCe3pcTvQGYNEo2V3lheiGYat-mHTKdZvujUMLO1fGr",
            q: "u4qIRdTMjPY0eP94kRXWJTzqyBC_k7zisiGVNhv_IoLHP9qrVDxGGjYyPZu4FPkr69sY18eoWibgqF2EltWcjF-OFn9Pr0ch"
                + "ic7NZLnfcGrnqCneOCu-tSAYjjlplQc5GWpDze9S_WM4u8DzuyJvPSC8TA81SARstQUtZdyWaxs5-dQLiREiKs4y3HX_Cj-Z"
                + "LkQY6po3U6nBNco5foLOVU4e7q5sxbPA6_NLWBpLfjy3Ew6SjpSm29Ph32KbkBfF",
            signature:
                "EOpnamlKJ6dCeTlNnq1qKA8fb0MJB-5NZktL75WBrIabHqkzl57SfDpjDf3HqQLHnb0D2AdUXIgpN0jHbVn1pBTyVwFiHHFD"
                + "YJZXIt06uA7G415zkufEiBimZHZcd3vJZmXVlg5oJZm1hWexXm579LZUwOw7K3McjsLDxsT6TWFUm9e6Hj49ObCuCRBl7YTt"
                + "_n_yJaSUOKOI9sFlTrgxBeNgqy4dktw-rCuQbmkPqFTlXIaeeHE-3E1qR-KNKMrjO768Iq8lYdtNX984wy7u5jul78pmL146"
                + "XT6EzTNAcKzXFEny5_KOE66SY6pnjQD8FI0naqUVCLxEkD20M3z29wZ2i_Tj5YQldB74Xkja2p_Tho9Rzyd6vpJNOZlGDJUr"
                + "quRplSl-IORmJH5BQP5-IBSq6x_m923GpvHqDJGDjrD3D0OYMb_1x2yVnxber87-pSJCoDY5BoAoq0-pkmMv6JPUpVCP-tem"
                + "Au4wAknAJCJxXjKgrZG_pITNg0wJwudn"),
        Vector(
            bits: 4096, primeLimbs: 32,
            p: "-3b0IwCqhXEryY3nf2G7Lz3FENXEyCElmflNf8-XlgcM40zhqpeVl0uGeqO8YRjgzuJLLkVtEkRqELLpUwdC615Lcf7goAOj"
                + "d0Qs_cybe394I-wIPCmDR3B2SUTjQ8U9A8sXonRbyXTUGh_44xR5u7GYlDDh_PrsM6xbweLkA-prXrno5HCHGaahbVqZiHIY"
                + "dyQ8uidbEOisCrtW0A8ewtdUKZw_yJFTXT0vP260bRZGXavEI0_zYlra-2HgV1tv1_m_83k2NjEJFpDSfrHTO1W9t0GGwldO"
                + "ti8t0Fb5NG8yCzPwZ-2fT_K24xtb_-rwEI6D1PDAegCzAF8TG4y_mw",
            q: "3y1kseCK1zp41DJF5INdE_IX757dXwSDLHqDGLWKeQk5EHRY2O0K4yZltPmjpC1SnnKji_2r5jdihH4Ga7k5xOkF1wk-qXn9"
                + "DyNBi2SMiKup1-0BbPjmtKRlhiKLczULv_6kyZX3mHPUvZzKSY8iWLIpuWYJHmDdZXILkmQE83sHDkwHHLxDGYMhJb1HgziD"
                + "tW7JBCed87X86Lj8gosVfGZQ8flJbrnXpbesB1QepfPxAUhUFLtIjj0hKMAAafqgh7OQ5d3x48zZwNPD4oMOJ1wFW0S93XWn"
                + "J3-pZ18MqAjpnONfD9RvPms69hGjr8gIyDJ6dIn8Y5rC7ecvwgVMtw",
            signature:
                "kYv1wtpBpFgQo-n6ZBjQzzlRv-O5WwZ4xROvN0nMKpMhRP39Nzu84ka6iJWsSJzvdkcs5p-8n3zkzv4F24Iq_sTcINmidIKo"
                + "zCBu__x1XiyQMAmIk-bf_eWJCJHKmtdGY7N99wv3aMyeRYaJqBOxOzjOYk9vY-iahZkVFbOy5QrqsgOFoNUV6ZezRmIZEqAU"
                + "Rp10nYBqz3byJzYGv_QyzASZLsrGRmEYomA8vzu-6SjUbi-tcM1_sxXJ-hMUA-I-HT_DZc_On-e1UA3KjiY0NoBR-EkyR3_P"
                + "ibKsq3HPqaFftgwCdq_oD8WiVlzDRiE3dxlvqw09I4WjWeeTqNk8f4k6eReTvjgfuZRbmYbDTnPMdiisCGNWFBW7DiY1A8L4"
                + "7Q3fpeyBiQBaxWrr6xC19zCIsKgRGbLNVIjk31LmijXyi2F5OpDrK8dxDsJFMozCzvQ-gP-Td9Ky0PghGLCqR-l_DMnWN11a"
                + "d2FWUHXDLk-BnHkRRzpAF1SZepjeY3dNVJ03u3bdDYVZWPpZU77cYPzg-PGZkUGoMk_MEf577pI9HRZDsGKhgcASMSzE2S_f"
                + "dnC1YAyN9c4K9OS6ieC4Im22uUoHssaa7brs7VOTqsHzMaPND_a-1zayfLiYatNqpZF_DXyaW20JhBo1Hu8PDCxD2Gy0kTFh"
                + "JGJegJgcasA"),
    ]

    @Test(arguments: vectors.map(\.bits))
    func signsAsOpenSSLDoes(bits: Int) throws {
        let vector = try #require(Self.vectors.first { $0.bits == bits })
        let p = try #require(Base64URL.decode(vector.p))
        let q = try #require(Base64URL.decode(vector.q))
        #expect((p.count + 7) / 8 == vector.primeLimbs)
        let key = try RSA.PrivateKey(p: p, q: q)
        #expect(key.publicKey.modulusBits == bits)
        let signature = key.signature(for: Self.signingInput, hash: .sha256)
        #expect(signature == Base64URL.decode(vector.signature))
        #expect(key.publicKey.isValidSignature(signature, for: Self.signingInput))
    }
}

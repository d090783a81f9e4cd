package codingtools

import (
	"bytes"
	"encoding/binary"
	"image/gif"
	"image/jpeg"
	"image/png"
	"slices"
)

// pngSignature starts every PNG file.
var pngSignature = []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}

// detectImage returns the MIME type of the image formats the read tool
// sends as images (JPEG, still PNG, GIF, WebP, BMP) from a file's first
// bytes, or "".
func detectImage(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte{0xff, 0xd8, 0xff}):
		if len(b) > 3 && b[3] == 0xf7 {
			return ""
		}
		return "image/jpeg"
	case bytes.HasPrefix(b, pngSignature):
		if isPNG(b) && !isAnimatedPNG(b) {
			return "image/png"
		}
		return ""
	case bytes.HasPrefix(b, []byte("GIF87a")) || bytes.HasPrefix(b, []byte("GIF89a")):
		return "image/gif"
	case bytes.HasPrefix(b, []byte("RIFF")) && len(b) >= 12 && string(b[8:12]) == "WEBP":
		return "image/webp"
	case bytes.HasPrefix(b, []byte("BM")) && isBMP(b):
		return "image/bmp"
	}
	return ""
}

func isPNG(b []byte) bool {
	return len(b) >= 16 && binary.BigEndian.Uint32(b[8:]) == 13 && string(b[12:16]) == "IHDR"
}

func isAnimatedPNG(b []byte) bool {
	off := len(pngSignature)
	for off+8 <= len(b) {
		size := int(binary.BigEndian.Uint32(b[off:]))
		switch string(b[off+4 : off+8]) {
		case "acTL":
			return true
		case "IDAT":
			return false
		}
		next := off + 8 + size + 4
		if next <= off || next > len(b) {
			return false
		}
		off = next
	}
	return false
}

func isBMP(b []byte) bool {
	if len(b) < 26 {
		return false
	}
	fileSize := binary.LittleEndian.Uint32(b[2:])
	dataOffset := binary.LittleEndian.Uint32(b[10:])
	header := binary.LittleEndian.Uint32(b[14:])
	if fileSize != 0 && fileSize < 26 || dataOffset < 14+header || fileSize != 0 && dataOffset >= fileSize {
		return false
	}
	var planes, bits uint16
	switch {
	case header == 12:
		planes, bits = binary.LittleEndian.Uint16(b[22:]), binary.LittleEndian.Uint16(b[24:])
	case header >= 40 && header <= 124:
		if len(b) < 30 {
			return false
		}
		planes, bits = binary.LittleEndian.Uint16(b[26:]), binary.LittleEndian.Uint16(b[28:])
	default:
		return false
	}
	return planes == 1 && slices.Contains([]uint16{1, 4, 8, 16, 24, 32}, bits)
}

// decodes reports whether an image of type mime decodes whole, as pi's
// resizer must before it sends the image; a WebP, which the standard
// library cannot decode, is taken as it is.
func decodes(data []byte, mime string) bool {
	var err error
	switch mime {
	case "image/png":
		_, err = png.Decode(bytes.NewReader(data))
	case "image/jpeg":
		_, err = jpeg.Decode(bytes.NewReader(data))
	case "image/gif":
		_, err = gif.DecodeAll(bytes.NewReader(data))
	}
	return err == nil
}

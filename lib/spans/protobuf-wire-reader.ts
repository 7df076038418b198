/**
 * A protobuf wire-format reader: tags, varints, fixed32/64, length-delimited values and the
 * skipping of unknown fields (groups included), all bounds-checked.
 *
 * Hostile input: every length prefix is checked against the bytes remaining in its enclosing
 * message before anything is read or allocated, varints are capped at 10 bytes and group
 * nesting is capped, so reading never runs past a message or recurses without bound. Every
 * problem is a `LoopscopeError('INVALID_ARGUMENT')` naming the byte offset.
 */
import { LoopscopeError } from '../errors';

/** Deepest nesting of (deprecated) groups skipped as unknown fields. */
const MAX_GROUP_DEPTH = 64;

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_LEN = 2;
const WIRE_START_GROUP = 3;
const WIRE_END_GROUP = 4;
const WIRE_FIXED32 = 5;

const WIRE_TYPE_NAMES = ['varint', 'fixed64', 'length-delimited', 'start-group', 'end-group', 'fixed32'];

const utf8 = new TextDecoder('utf-8', { fatal: true });
const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** The error for a body that is not valid protobuf: `what` went wrong at byte `offset`. */
export function malformed(what: string, offset: number): LoopscopeError {
  return new LoopscopeError('INVALID_ARGUMENT', `OTLP protobuf body is malformed: ${what} at byte offset ${offset}`);
}

export interface Tag {
  field: number;
  wireType: number;
  /** Absolute offset of the tag's first byte (for error messages). */
  offset: number;
}

/**
 * Reads one message: the bytes [pos, end) of a shared buffer. Offsets are absolute within the
 * whole body so error messages point at the real byte.
 */
export class ProtobufWireReader {
  /** Low/high 32 bits of the last varint read (avoids allocating per varint). */
  private lo = 0;
  private hi = 0;

  readonly buf: Uint8Array;
  pos: number;
  readonly end: number;

  constructor({ buf, pos, end }: { buf: Uint8Array; pos: number; end: number }) {
    this.buf = buf;
    this.pos = pos;
    this.end = end;
  }

  atEnd(): boolean {
    return this.pos >= this.end;
  }

  readTag(): Tag {
    const offset = this.pos;
    this.readVarintRaw('field tag');
    const wireType = this.lo & 7;
    // Field numbers are 29 bits; a tag with high bits set is not a valid tag.
    if (this.hi !== 0) throw malformed('field tag exceeds 32 bits', offset);
    const field = this.lo >>> 3;
    if (field === 0) throw malformed('field number 0', offset);
    if (wireType > WIRE_FIXED32) throw malformed(`invalid wire type ${wireType} for field ${field}`, offset);
    return { field, wireType, offset };
  }

  /** Reads a varint into `lo`/`hi` (two's-complement 64 bits). */
  private readVarintRaw(what: string): void {
    const start = this.pos;
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw malformed(`truncated varint (${what})`, start);
      const b = this.buf[this.pos++];
      if (i < 4) {
        lo |= (b & 0x7f) << (7 * i);
      } else if (i === 4) {
        lo |= (b & 0x0f) << 28;
        hi |= (b & 0x7f) >>> 4;
      } else {
        hi |= (b & 0x7f) << (7 * i - 32);
      }
      if ((b & 0x80) === 0) {
        this.lo = lo >>> 0;
        this.hi = hi >>> 0;
        return;
      }
    }
    throw malformed(`varint longer than 10 bytes (${what})`, start);
  }

  /** uint32 fields (dropped counts): the low 32 bits, as protobuf parsers do. */
  readUint32(what: string): number {
    this.readVarintRaw(what);
    return this.lo;
  }

  /** int32 / enum fields: the low 32 bits as signed (negative enums are sign-extended on the wire). */
  readInt32(what: string): number {
    this.readVarintRaw(what);
    return this.lo | 0;
  }

  readBool(what: string): boolean {
    this.readVarintRaw(what);
    return this.lo !== 0 || this.hi !== 0;
  }

  /** int64 as a decimal string (two's complement, so negatives come out negative). */
  readInt64String(what: string): string {
    this.readVarintRaw(what);
    return BigInt.asIntN(64, (BigInt(this.hi) << 32n) | BigInt(this.lo)).toString();
  }

  private need(n: number, what: string): number {
    const start = this.pos;
    if (this.end - start < n) {
      throw malformed(`truncated ${what}: needs ${n} bytes, ${this.end - start} left`, start);
    }
    this.pos += n;
    return start;
  }

  /** fixed64 as an unsigned decimal string. */
  readFixed64String(what: string): string {
    const p = this.need(8, what);
    const b = this.buf;
    const lo = (b[p] | (b[p + 1] << 8) | (b[p + 2] << 16) | (b[p + 3] << 24)) >>> 0;
    const hi = (b[p + 4] | (b[p + 5] << 8) | (b[p + 6] << 16) | (b[p + 7] << 24)) >>> 0;
    return ((BigInt(hi) << 32n) | BigInt(lo)).toString();
  }

  readDouble(what: string): number {
    const p = this.need(8, what);
    return new DataView(this.buf.buffer, this.buf.byteOffset + p, 8).getFloat64(0, true);
  }

  readFixed32(what: string): number {
    const p = this.need(4, what);
    const b = this.buf;
    return (b[p] | (b[p + 1] << 8) | (b[p + 2] << 16) | (b[p + 3] << 24)) >>> 0;
  }

  /** Reads a length prefix and returns [start, end) of the payload, already bounds-checked. */
  private readLengthDelimited(what: string): [number, number] {
    const prefixAt = this.pos;
    this.readVarintRaw(`length of ${what}`);
    const remaining = this.end - this.pos;
    if (this.hi !== 0 || this.lo > remaining) {
      const len = this.hi !== 0 ? ((BigInt(this.hi) << 32n) | BigInt(this.lo)).toString() : String(this.lo);
      throw malformed(`length prefix ${len} of ${what} exceeds the ${remaining} bytes left`, prefixAt);
    }
    const start = this.pos;
    this.pos += this.lo;
    return [start, this.pos];
  }

  readSubMessage(what: string): ProtobufWireReader {
    const [start, end] = this.readLengthDelimited(what);
    return new ProtobufWireReader({ buf: this.buf, pos: start, end });
  }

  readBytes(what: string): Uint8Array {
    const [start, end] = this.readLengthDelimited(what);
    return this.buf.subarray(start, end);
  }

  readString(what: string): string {
    const [start, end] = this.readLengthDelimited(what);
    try {
      return utf8.decode(this.buf.subarray(start, end));
    } catch {
      throw malformed(`invalid UTF-8 in ${what}`, start);
    }
  }

  readHex(what: string): string {
    const bytes = this.readBytes(what);
    let out = '';
    for (let i = 0; i < bytes.length; i++) out += HEX[bytes[i]];
    return out;
  }

  readBase64(what: string): string {
    return Buffer.from(this.readBytes(what)).toString('base64');
  }

  // Each `…Field` reader checks the wire type a known field must have, then reads its value;
  // `what` names the field (e.g. `Span.name`) in error messages.

  stringField(tag: Tag, what: string): string {
    expectWireType({ tag, wireType: WIRE_LEN, what });
    return this.readString(what);
  }

  /** A `bytes` id field (trace/span id) as lowercase hex. */
  hexField(tag: Tag, what: string): string {
    expectWireType({ tag, wireType: WIRE_LEN, what });
    return this.readHex(what);
  }

  /** A `bytes` field as base64 (the proto3 JSON mapping). */
  base64Field(tag: Tag, what: string): string {
    expectWireType({ tag, wireType: WIRE_LEN, what });
    return this.readBase64(what);
  }

  /** An embedded message field, as a reader of just its bytes. */
  messageField(tag: Tag, what: string): ProtobufWireReader {
    expectWireType({ tag, wireType: WIRE_LEN, what });
    return this.readSubMessage(what);
  }

  boolField(tag: Tag, what: string): boolean {
    expectWireType({ tag, wireType: WIRE_VARINT, what });
    return this.readBool(what);
  }

  int32Field(tag: Tag, what: string): number {
    expectWireType({ tag, wireType: WIRE_VARINT, what });
    return this.readInt32(what);
  }

  uint32Field(tag: Tag, what: string): number {
    expectWireType({ tag, wireType: WIRE_VARINT, what });
    return this.readUint32(what);
  }

  int64Field(tag: Tag, what: string): string {
    expectWireType({ tag, wireType: WIRE_VARINT, what });
    return this.readInt64String(what);
  }

  fixed32Field(tag: Tag, what: string): number {
    expectWireType({ tag, wireType: WIRE_FIXED32, what });
    return this.readFixed32(what);
  }

  fixed64Field(tag: Tag, what: string): string {
    expectWireType({ tag, wireType: WIRE_FIXED64, what });
    return this.readFixed64String(what);
  }

  doubleField(tag: Tag, what: string): number {
    expectWireType({ tag, wireType: WIRE_FIXED64, what });
    return this.readDouble(what);
  }

  /** Skips the value of a field we do not know (or do not use), whatever its wire type. */
  skip(tag: Tag): void {
    switch (tag.wireType) {
      case WIRE_VARINT:
        this.readVarintRaw(`field ${tag.field}`);
        return;
      case WIRE_FIXED64:
        this.need(8, `fixed64 field ${tag.field}`);
        return;
      case WIRE_LEN:
        this.readLengthDelimited(`field ${tag.field}`);
        return;
      case WIRE_FIXED32:
        this.need(4, `fixed32 field ${tag.field}`);
        return;
      case WIRE_START_GROUP:
        this.skipGroup(tag);
        return;
      case WIRE_END_GROUP:
        throw malformed(`unexpected end-group for field ${tag.field}`, tag.offset);
      default:
        throw malformed(`invalid wire type ${tag.wireType} for field ${tag.field}`, tag.offset);
    }
  }

  /** Skips a (deprecated) group up to its matching end-group tag, iteratively. */
  private skipGroup(open: Tag): void {
    const stack: number[] = [open.field];
    while (stack.length > 0) {
      if (this.atEnd()) throw malformed(`unterminated group for field ${open.field}`, open.offset);
      const tag = this.readTag();
      if (tag.wireType === WIRE_START_GROUP) {
        if (stack.length >= MAX_GROUP_DEPTH) throw malformed('groups nested too deeply', tag.offset);
        stack.push(tag.field);
      } else if (tag.wireType === WIRE_END_GROUP) {
        const expected = stack.pop();
        if (tag.field !== expected) {
          throw malformed(`end-group for field ${tag.field} does not match open group ${expected}`, tag.offset);
        }
      } else {
        this.skip(tag);
      }
    }
  }
}

/** A known field arrived with a wire type its schema never uses. */
function expectWireType({ tag, wireType, what }: { tag: Tag; wireType: number; what: string }): void {
  if (tag.wireType !== wireType) {
    throw malformed(
      `${what} (field ${tag.field}) has wire type ${WIRE_TYPE_NAMES[tag.wireType] ?? tag.wireType}, expected ${WIRE_TYPE_NAMES[wireType]}`,
      tag.offset,
    );
  }
}

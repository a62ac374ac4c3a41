;; Compacts a lock's bytes in place for runtime/lock/compact-text.ts: removes the whitespace outside
;; strings and records where the structural bytes ({ } [ ] , :) at nesting depth 1 and 2 landed.
;; WebAssembly because this loop sees every byte of a megabytes-large lock once, at start-up: V8 runs
;; a JavaScript loop that runs once in its slow tiers until an optimised version is ready, which on a
;; busy machine is most of the loop; this runs at baseline-compiled speed from its first byte, and
;; is called once per slice of the lock so that V8 can move it to optimised code part way through.
;; Assembled by scripts/build-compact-wasm.mjs into compact-wasm.ts (a test checks they agree).
;;
;; compact(limit, n, marks, cap) -> length written, -1, or -2
;;   limit  pause (-2) once the read offset reaches it; call again with a higher limit to go on
;;   n      the lock's length; its bytes are at offset 0 and are overwritten by the result
;;   marks  offset (4-aligned) of room for cap i32 offsets into the result, ended by -1
;;   -1     an unterminated string, a control byte outside a string, whitespace between two bytes of
;;          numbers or literals ("1 2"), or more than cap - 1 marks
;; In place is safe: the write offset never passes the read offset (an eight-byte store writes
;; at most the eight bytes just read).
(module
  (memory (export "memory") 1)
  ;; Where a paused scan stands: read and write offsets, marks so far, whitespace seen, last token a
  ;; number or literal, nesting depth.
  (global $at (mut i32) (i32.const 0))
  (global $out (mut i32) (i32.const 0))
  (global $marked (mut i32) (i32.const 0))
  (global $gapSeen (mut i32) (i32.const 0))
  (global $afterWord (mut i32) (i32.const 0))
  (global $nesting (mut i32) (i32.const 0))
  (func (export "compact") (param $limit i32) (param $n i32) (param $marks i32) (param $cap i32) (result i32)
    (local $i i32) (local $o i32) (local $m i32) (local $c i32) (local $gap i32) (local $word i32) (local $depth i32) (local $w i64)
    (local.set $i (global.get $at))
    (local.set $o (global.get $out))
    (local.set $m (global.get $marked))
    (local.set $gap (global.get $gapSeen))
    (local.set $word (global.get $afterWord))
    (local.set $depth (global.get $nesting))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        ;; Pause between tokens once past the limit (a string in progress is finished first).
        (if (i32.ge_u (local.get $i) (local.get $limit))
          (then
            (global.set $at (local.get $i))
            (global.set $out (local.get $o))
            (global.set $marked (local.get $m))
            (global.set $gapSeen (local.get $gap))
            (global.set $afterWord (local.get $word))
            (global.set $nesting (local.get $depth))
            (return (i32.const -2))))
        (local.set $c (i32.load8_u (local.get $i)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (if (i32.or (i32.eq (local.get $c) (i32.const 0x20)) (i32.eq (local.get $c) (i32.const 0x0a)))
          (then
            (local.set $gap (i32.const 1))
            ;; Indentation: eight spaces at a time.
            (block $indented
              (loop $spaces
                (br_if $indented (i32.gt_u (i32.add (local.get $i) (i32.const 8)) (local.get $n)))
                (br_if $indented (i64.ne (i64.load (local.get $i)) (i64.const 0x2020202020202020)))
                (local.set $i (i32.add (local.get $i) (i32.const 8)))
                (br $spaces)))
            (br $next)))
        (if (i32.eq (local.get $c) (i32.const 0x22))
          (then
            (i32.store8 (local.get $o) (local.get $c))
            (local.set $o (i32.add (local.get $o) (i32.const 1)))
            (block $endstr
              (loop $str
                ;; Eight bytes at a time while none is a quote or a backslash: a byte b of w is one
                ;; when (w ^ b*0x0101..01) has a zero byte, and v has one when (v - 0x0101..01) & ~v & 0x8080..80 != 0.
                (if (i32.le_u (i32.add (local.get $i) (i32.const 8)) (local.get $n))
                  (then
                    (local.set $w (i64.load (local.get $i)))
                    (if (i64.eqz
                          (i64.and
                            (i64.or
                              (i64.and
                                (i64.sub (i64.xor (local.get $w) (i64.const 0x2222222222222222)) (i64.const 0x0101010101010101))
                                (i64.xor (i64.xor (local.get $w) (i64.const 0x2222222222222222)) (i64.const -1)))
                              (i64.and
                                (i64.sub (i64.xor (local.get $w) (i64.const 0x5c5c5c5c5c5c5c5c)) (i64.const 0x0101010101010101))
                                (i64.xor (i64.xor (local.get $w) (i64.const 0x5c5c5c5c5c5c5c5c)) (i64.const -1))))
                            (i64.const 0x8080808080808080)))
                      (then
                        (i64.store (local.get $o) (local.get $w))
                        (local.set $i (i32.add (local.get $i) (i32.const 8)))
                        (local.set $o (i32.add (local.get $o) (i32.const 8)))
                        (br $str)))))
                (if (i32.ge_u (local.get $i) (local.get $n)) (then (return (i32.const -1))))
                (local.set $c (i32.load8_u (local.get $i)))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (i32.store8 (local.get $o) (local.get $c))
                (local.set $o (i32.add (local.get $o) (i32.const 1)))
                (br_if $endstr (i32.eq (local.get $c) (i32.const 0x22)))
                (if (i32.eq (local.get $c) (i32.const 0x5c))
                  (then
                    (if (i32.ge_u (local.get $i) (local.get $n)) (then (return (i32.const -1))))
                    (i32.store8 (local.get $o) (i32.load8_u (local.get $i)))
                    (local.set $i (i32.add (local.get $i) (i32.const 1)))
                    (local.set $o (i32.add (local.get $o) (i32.const 1)))))
                (br $str)))
            (local.set $gap (i32.const 0))
            (local.set $word (i32.const 0))
            (br $next)))
        ;; Structural: [ ] { } (0x5b 0x5d 0x7b 0x7d, equal under & 0xdf), comma, colon.
        (if (i32.gt_u (local.get $c) (i32.const 0x20))
          (then
            (if (i32.or (i32.or (i32.eq (i32.and (local.get $c) (i32.const 0xdf)) (i32.const 0x5b))
                                (i32.eq (i32.and (local.get $c) (i32.const 0xdf)) (i32.const 0x5d)))
                        (i32.or (i32.eq (local.get $c) (i32.const 0x2c)) (i32.eq (local.get $c) (i32.const 0x3a))))
              (then
                (if (i32.eq (i32.and (local.get $c) (i32.const 0xdf)) (i32.const 0x5b))
                  (then (local.set $depth (i32.add (local.get $depth) (i32.const 1)))))
                (if (i32.le_s (local.get $depth) (i32.const 2))
                  (then
                    (if (i32.ge_u (local.get $m) (local.get $cap)) (then (return (i32.const -1))))
                    (i32.store (i32.add (local.get $marks) (i32.shl (local.get $m) (i32.const 2))) (local.get $o))
                    (local.set $m (i32.add (local.get $m) (i32.const 1)))))
                (if (i32.eq (i32.and (local.get $c) (i32.const 0xdf)) (i32.const 0x5d))
                  (then (local.set $depth (i32.sub (local.get $depth) (i32.const 1)))))
                (local.set $word (i32.const 0)))
              (else
                (if (i32.and (local.get $gap) (local.get $word)) (then (return (i32.const -1))))
                (local.set $word (i32.const 1))))
            (local.set $gap (i32.const 0))
            (i32.store8 (local.get $o) (local.get $c))
            (local.set $o (i32.add (local.get $o) (i32.const 1)))
            (br $next)))
        (if (i32.or (i32.eq (local.get $c) (i32.const 0x0d)) (i32.eq (local.get $c) (i32.const 0x09)))
          (then (local.set $gap (i32.const 1)) (br $next)))
        (return (i32.const -1))))
    (if (i32.ge_u (local.get $m) (local.get $cap)) (then (return (i32.const -1))))
    (i32.store (i32.add (local.get $marks) (i32.shl (local.get $m) (i32.const 2))) (i32.const -1))
    (local.get $o))
)

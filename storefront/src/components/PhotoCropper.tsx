/**
 * The crop step of the photo search: a rectangle over the photo that can be dragged and resized
 * with a pointer (mouse, touch, pen), or with the keyboard (arrows move it, Shift for larger
 * steps, Alt+arrows resize it). Coordinates are in image pixels (lib/crop.ts).
 */
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from "react";
import { HANDLES, moveRect, rectForKey, resizeRect, scaleRect, type Handle, type Rect, type Size } from "../lib/crop";

export interface PhotoCropperProps {
  src: string;
  size: Size;
  rect: Rect;
  onChange(rect: Rect): void;
}

type Drag = { mode: "move" } | { mode: "resize"; handle: Handle };

export function PhotoCropper({ src, size, rect, onChange }: PhotoCropperProps) {
  const frameRef = useRef<HTMLDivElement>(null);
  const [scale, setScale] = useState(1);
  const drag = useRef<{ kind: Drag; startX: number; startY: number; start: Rect } | null>(null);

  // Display pixels per image pixel, kept current as the layout changes.
  useEffect(() => {
    const el = frameRef.current;
    if (!el) return;
    const update = () => setScale(el.clientWidth / size.width || 1);
    update();
    const ro = typeof ResizeObserver !== "undefined" ? new ResizeObserver(update) : null;
    ro?.observe(el);
    window.addEventListener("resize", update);
    return () => {
      ro?.disconnect();
      window.removeEventListener("resize", update);
    };
  }, [size.width]);

  const begin = (kind: Drag) => (e: ReactPointerEvent<HTMLElement>) => {
    if (e.button !== 0 && e.pointerType === "mouse") return;
    e.preventDefault();
    e.stopPropagation();
    (e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId);
    drag.current = { kind, startX: e.clientX, startY: e.clientY, start: rect };
  };
  const onMove = (e: ReactPointerEvent<HTMLElement>) => {
    const d = drag.current;
    if (!d) return;
    const dx = (e.clientX - d.startX) / scale;
    const dy = (e.clientY - d.startY) / scale;
    onChange(d.kind.mode === "move" ? moveRect(d.start, dx, dy, size) : resizeRect(d.start, d.kind.handle, dx, dy, size));
  };
  const end = () => {
    drag.current = null;
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const next = rectForKey(rect, e.key, size, { shift: e.shiftKey, resize: e.altKey });
    if (!next) return;
    e.preventDefault();
    onChange(next);
  };

  const shown = scaleRect(rect, scale);
  return (
    <div className="cropper" data-testid="photo-cropper">
      <div
        ref={frameRef}
        className="cropper__frame"
        // As wide as the column, but never taller than 70% of the screen, keeping the photo's shape.
        style={{ aspectRatio: `${size.width} / ${size.height}`, width: `min(100%, calc(70vh * ${(size.width / size.height).toFixed(4)}))` }}
      >
        <img className="cropper__img" src={src} alt="Your photo" draggable={false} />
        <div className="cropper__shade" aria-hidden="true" style={{ clipPath: `polygon(0 0, 100% 0, 100% 100%, 0 100%, 0 0, ${shown.x}px ${shown.y}px, ${shown.x}px ${shown.y + shown.h}px, ${shown.x + shown.w}px ${shown.y + shown.h}px, ${shown.x + shown.w}px ${shown.y}px, ${shown.x}px ${shown.y}px)` }} />
        <div
          className="cropper__rect"
          role="group"
          tabIndex={0}
          aria-label="Crop area. Arrow keys move it, Shift with an arrow moves further, Alt with an arrow resizes it."
          aria-describedby="crop-size"
          style={{ left: shown.x, top: shown.y, width: shown.w, height: shown.h }}
          onPointerDown={begin({ mode: "move" })}
          onPointerMove={onMove}
          onPointerUp={end}
          onPointerCancel={end}
          onKeyDown={onKeyDown}
          data-testid="crop-rect"
        >
          {HANDLES.map((h) => (
            <span
              key={h}
              className={`cropper__handle cropper__handle--${h}`}
              onPointerDown={begin({ mode: "resize", handle: h })}
              onPointerMove={onMove}
              onPointerUp={end}
              onPointerCancel={end}
              data-testid={`crop-handle-${h}`}
              aria-hidden="true"
            />
          ))}
        </div>
      </div>
      <p id="crop-size" className="cropper__size" aria-live="polite">
        Selection {rect.w} × {rect.h} px of {size.width} × {size.height} px
      </p>
    </div>
  );
}

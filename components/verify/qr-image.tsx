"use client";
/** The qr flow's code, fetched again every few seconds (a new frame, like providers' animated QR). */
import { useEffect, useState } from "react";

const FRAME_MS = 5000;

export function QrImage({ verificationId, alt }: { verificationId: string; alt: string }) {
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setFrame((f) => f + 1), FRAME_MS);
    return () => clearInterval(timer);
  }, []);
  return (
    // eslint-disable-next-line @next/next/no-img-element -- an SVG from our own route, no optimisation wanted
    <img
      src={`/verify/${verificationId}/qr?f=${frame}`}
      alt={alt}
      width={224}
      height={224}
      className="mx-auto h-56 w-56 rounded-md border border-gray-200 bg-white"
      data-testid="qr-code"
      data-frame={frame}
    />
  );
}

"use client";
/** Time left until the session expires (mm:ss); announced only when it runs out. */
import { useEffect, useState } from "react";

function remaining(expiresAt: string): number {
  return Math.max(0, Math.floor((new Date(expiresAt).getTime() - Date.now()) / 1000));
}

export function Countdown({
  expiresAt,
  template,
  expired,
}: {
  expiresAt: string;
  template: string;
  expired: string;
}) {
  const [seconds, setSeconds] = useState<number | null>(null);
  useEffect(() => {
    const tick = () => setSeconds(remaining(expiresAt));
    // the server renders no time (its clock is not the browser's); the first tick comes at once
    const first = setTimeout(tick, 0);
    const timer = setInterval(tick, 1000);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [expiresAt]);
  if (seconds === null) return null;
  const time = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  return (
    <p className="text-sm text-gray-700" data-testid="countdown">
      {seconds === 0 ? <span role="alert">{expired}</span> : template.replace("{time}", time)}
    </p>
  );
}

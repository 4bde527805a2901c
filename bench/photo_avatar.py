"""Photo avatar: render speed, lip sync measured on the output, identity at rest, and a contact sheet.

Run: .venv/bin/python bench/photo_avatar.py [--image tests/data/astronaut.png] [--resolution 720p]
     [--sheet var/photo_avatar_sheet.png]

- speed: seconds of video per wall-clock second at the resolution, without speech (the render alone,
  encoding included) and with speech (Piper synthesis plus the render); pinned to 2 cores.
- lip sync: the rendered MP4 is decoded and dlib finds the 68 landmarks again on every frame; the inner
  lips' gap per frame is compared with the speech's RMS envelope per frame (Pearson r).
- identity: the rest pose, encoded and decoded like any frame, against the photo scaled into the frame,
  outside the mouth-and-jaw crop (mean absolute error, 0..255); also every frame of the clip outside the
  mouth, jaw and eyes, head motion included (informative).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import av
import cv2
import numpy as np

from avatar_service.adapters.dlib_faces import DlibFaceFinder, _models
from avatar_service.adapters.portrait_analysis import PortraitAnalysis
from avatar_service.adapters.pyav_renderer import RESOLUTIONS, PyAVRenderer
from avatar_service.adapters.pyav_renderer.encoder import MediaWriter
from avatar_service.adapters.pyav_renderer.motion import _frame_features
from avatar_service.adapters.pyav_renderer.photo import PhotoComposer, Pose
from avatar_service.adapters.pyav_renderer.photo_rig import photo_rig
from avatar_service.ports.renderer import RenderRequest
from avatar_service.ports.speech import Audio, VoiceChoice

TEXT = (
    "Hello, and welcome to the museum. My name is Eileen, and I will be your guide today. "
    "We open at nine in the morning and close at five. Tickets cost twelve euros, and children go free. "
    "Would you like to see the rockets first, or shall we start with the history of flight? "
    "Look over there: that is a model of the shuttle I flew. Do you have any questions for me?"
)


def decode_frames(path: Path) -> list[np.ndarray]:
    with av.open(str(path)) as container:
        return [frame.to_ndarray(format="rgb24") for frame in container.decode(video=0)]


def lip_gaps(frames: list[np.ndarray], region: tuple[int, int, int, int]) -> np.ndarray:
    """The inner lips' gap per frame (pixels), landmarks found afresh by dlib on the rendered frame."""
    hog, _, predictor = _models()
    top, left, bottom, right = region
    gaps, last = [], None
    for frame in frames:
        crop = np.ascontiguousarray(frame[top:bottom, left:right])
        faces = hog(crop, 0)
        rect = max(faces, key=lambda r: r.width()) if faces else last
        if rect is None:
            gaps.append(np.nan)
            continue
        last = rect
        shape = predictor(crop, rect)
        p = np.array([[shape.part(i).x, shape.part(i).y] for i in range(68)], np.float64)
        gaps.append(float(np.mean(p[[65, 66, 67], 1] - p[[63, 62, 61], 1])))
    return np.asarray(gaps)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--image", default="tests/data/astronaut.png")
    parser.add_argument("--resolution", default="720p", choices=list(RESOLUTIONS))
    parser.add_argument("--sheet", default="var/photo_avatar_sheet.png")
    parser.add_argument("--background", default="", help="'' (the photo itself), blur, #rrggbb, transparent")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, set(sorted(os.sched_getaffinity(0))[:2]))
    print(f"cpus: {len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count()}")

    started = time.perf_counter()
    portrait = PortraitAnalysis(DlibFaceFinder()).analyze(Path(args.image).read_bytes())
    print(f"upload analysis (models loaded on first use): {time.perf_counter() - started:.2f} s")
    started = time.perf_counter()
    PortraitAnalysis(DlibFaceFinder()).analyze(Path(args.image).read_bytes())
    print(f"upload analysis, warm: {time.perf_counter() - started:.2f} s")

    from avatar_service.adapters.speech import PiperSpeech

    piper = PiperSpeech()
    piper.synthesize("Warm up.", VoiceChoice(provider="openai"))
    started = time.perf_counter()
    audio: Audio = piper.synthesize(TEXT, VoiceChoice(provider="openai"))
    speech_time = time.perf_counter() - started
    print(f"speech: {audio.duration:.1f} s in {speech_time:.2f} s ({audio.duration / speech_time:.1f}x real time)")

    renderer = PyAVRenderer()
    width, height = RESOLUTIONS[args.resolution]
    with tempfile.TemporaryDirectory() as tmp:
        request = RenderRequest(audio, "photo", "realistic", args.background, args.resolution, Path(tmp) / "out",
                                photo=portrait)
        started = time.perf_counter()
        result = renderer.render(request, lambda _: None, lambda: False)
        cold = time.perf_counter() - started
        started = time.perf_counter()
        result = renderer.render(request, lambda _: None, lambda: False)
        warm = time.perf_counter() - started
        print(f"render {args.resolution} (speech excluded): cold {result.duration / cold:.2f}x, "
              f"warm {result.duration / warm:.2f}x real time ({result.duration:.1f} s of video in {warm:.2f} s)")
        print(f"render {args.resolution} with speech: {result.duration / (warm + speech_time):.2f}x real time")

        frames = decode_frames(result.video_path)
        rig = photo_rig(portrait, args.background, width, height)
        fps = renderer.fps
        samples = np.asarray(audio.samples).astype(np.float32) / 32768.0
        rms, _ = _frame_features(samples, audio.sample_rate, fps, len(frames))
        gaps = lip_gaps(frames, rig.region)
        found = ~np.isnan(gaps)
        r = float(np.corrcoef(gaps[found], rms[found])[0, 1])
        print(f"lip sync: landmarks found on {found.sum()}/{len(frames)} frames; Pearson r(lip gap, RMS) = {r:.3f}")

        # Identity at rest: the rest pose through the encoder and back, against the photo in the frame.
        composer = PhotoComposer(rig)
        rest_path = Path(tmp) / "rest.mp4"
        writer = MediaWriter(rest_path, width, height, fps, False, Audio(np.zeros(4000, np.int16), 16000))
        for index in range(8):
            writer.write(composer.frame(Pose()), index)
        writer.finish()
        rest = decode_frames(rest_path)[-1].astype(np.float32)
        photo = rig.rest[..., :3].astype(np.float32)
        outside = np.ones((height, width), bool)
        m_top, m_left, m_bottom, m_right = rig.mouth_rect
        outside[m_top:m_bottom, m_left:m_right] = False
        mae_rest = float(np.abs(rest - photo)[outside].mean())
        e_top, e_left, e_bottom, e_right = rig.eye_rect
        outside_eyes = outside.copy()
        outside_eyes[e_top:e_bottom, e_left:e_right] = False
        mae_motion = float(np.mean([np.abs(f.astype(np.float32) - photo)[outside_eyes].mean() for f in frames]))
        print(f"identity: rest pose MAE outside mouth and jaw {mae_rest:.2f}/255; "
              f"all frames (head motion included) outside mouth, jaw and eyes {mae_motion:.2f}/255")

        sheet = contact_sheet(frames, rig.region, gaps)
        Path(args.sheet).parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(args.sheet, cv2.cvtColor(sheet, cv2.COLOR_RGB2BGR))
        print(f"contact sheet: {args.sheet}")


def contact_sheet(frames: list[np.ndarray], region: tuple[int, int, int, int], gaps: np.ndarray) -> np.ndarray:
    """12 frames (head and shoulders), from the widest-open to shut, spread over the clip."""
    top, left, bottom, right = region
    chosen = np.linspace(5, len(frames) - 6, 12).round().astype(int)
    tiles = []
    for index in chosen:
        tile = np.ascontiguousarray(frames[index][top:bottom, left:right])
        scale = 300 / tile.shape[0]
        tile = cv2.resize(tile, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        cv2.putText(tile, f"#{index}", (6, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (255, 255, 255), 2, cv2.LINE_AA)
        tiles.append(tile)
    rows = [np.concatenate(tiles[i:i + 4], axis=1) for i in range(0, 12, 4)]
    return np.concatenate(rows, axis=0)


if __name__ == "__main__":
    main()

// Expected values: k8s.io/apimachinery pkg/util/duration/duration_test.go (TestHumanDuration and
// TestHumanDurationBoundaries), converted from Go durations to seconds.
import { describe, expect, it } from 'vitest';
import { humanDuration } from './duration';

const S = 1;
const M = 60;
const H = 3600;
const D = 24 * H;
const MS = 0.001;

describe('humanDuration (kubectl AGE)', () => {
  it.each([
    [S, '1s'],
    [70 * S, '70s'],
    [190 * S, '3m10s'],
    [70 * M, '70m'],
    [47 * H, '47h'],
    [49 * H, '2d1h'],
    [(8 * 24 + 2) * H, '8d'],
    [367 * D, '367d'],
    [(365 * 2 * 24 + 25) * H, '2y1d'],
    [(365 * 8 * 24 + 2) * H, '8y'],
  ])('%d seconds → %s', (d, want) => expect(humanDuration(d)).toBe(want));

  it.each([
    [-2 * S, '<invalid>'],
    [-2 * S + 1e-9, '0s'],
    [0, '0s'],
    [S - MS, '0s'],
    [2 * M - MS, '119s'],
    [2 * M, '2m'],
    [2 * M + S, '2m1s'],
    [10 * M - MS, '9m59s'],
    [10 * M, '10m'],
    [10 * M + S, '10m'],
    [3 * H - MS, '179m'],
    [3 * H, '3h'],
    [3 * H + M, '3h1m'],
    [8 * H - MS, '7h59m'],
    [8 * H, '8h'],
    [8 * H + 59 * M, '8h'],
    [2 * D - MS, '47h'],
    [2 * D, '2d'],
    [2 * D + H, '2d1h'],
    [8 * D - MS, '7d23h'],
    [8 * D, '8d'],
    [8 * D + 23 * H, '8d'],
    [2 * 365 * D - MS, '729d'],
    [2 * 365 * D, '2y'],
    [2 * 365 * D + 23 * H, '2y'],
    [2 * 365 * D + 23 * H + 59 * M, '2y'],
    [2 * 365 * D + D - MS, '2y'],
    [2 * 365 * D + D, '2y1d'],
    [3 * 365 * D, '3y'],
    [7 * 365 * D, '7y'],
    [8 * 365 * D - MS, '7y364d'],
    [8 * 365 * D, '8y'],
    [8 * 365 * D + 364 * D, '8y'],
    [9 * 365 * D, '9y'],
  ])('boundary %d seconds → %s', (d, want) => expect(humanDuration(d)).toBe(want));
});

/**
 * What the pods' servers and clients remember answers as computing afresh: a request text's
 * parse and a response head's (the same text asked again, or texts that are not HTTP), and the
 * Date header's text (times within one second, across seconds, and going back).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { httpDate, httpDateText } from '../output/time';
import {
  curlRequest,
  parseRequest,
  parseRequestText,
  parseResponse,
  parseResponseText,
  responseText,
  webResponse,
} from './http';

describe('parseRequest memo', () => {
  it('answers as the parse of the text, first time and again', () => {
    const request = fc
      .tuple(
        fc.constantFrom('10.96.0.1', 'web', 'svc.default.svc.cluster.local'),
        fc.constantFrom(80, 8080),
        fc.constantFrom('/', '/hostname', '/clientip?x=1', '/nope'),
      )
      .map(([host, port, path]) => curlRequest(host, port, path));
    const other = fc.oneof(
      fc.string(),
      fc.constantFrom(
        'GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n',
        'GET / HTTP/1.1\r\nConnection: close\r\n\r\n',
        'get / HTTP/1.1\r\n\r\n',
        '',
      ),
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(request, other), { maxLength: 20 }), (texts) => {
        for (const text of texts) {
          const fresh = parseRequestText(text);
          expect(parseRequest(text)).toEqual(fresh);
          expect(parseRequest(text)).toEqual(fresh);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('httpDate memo', () => {
  it('answers as the date computed afresh, whatever the order of the times', () => {
    const base = 1_773_302_400_000;
    const ms = fc.oneof(
      fc.integer({ min: base - 5_000, max: base + 5_000 }),
      fc.integer({ min: 0, max: 4_102_444_800_000 }),
    );
    fc.assert(
      fc.property(fc.array(ms, { maxLength: 30 }), (times) => {
        for (const t of times) expect(httpDate(t)).toBe(httpDateText(t));
      }),
      { numRuns: 300 },
    );
  });
});

describe('parseResponse memo', () => {
  it('answers as the parse of the text, first time and again', () => {
    const req = parseRequestText(curlRequest('10.96.0.1', 80, '/'))!;
    const response = fc
      .tuple(
        fc.constantFrom('web-1', 'web-2'),
        fc.integer({ min: 32768, max: 60999 }),
        fc.integer({ min: 1_773_302_400_000, max: 1_773_302_404_000 }),
        fc.constantFrom('/', '/nope', '/hostname'),
      )
      .map(([name, port, ms, path]) =>
        responseText(
          webResponse(
            { ...req, path },
            { name, local: '10.244.0.2:8080', peer: `10.244.0.7:${port}` },
            ms,
          ),
        ),
      );
    const other = fc.oneof(
      fc.string(),
      fc.constantFrom('HTTP/1.1 200\r\n\r\n', 'HTTP/2 200 OK\r\n\r\nx', 'no head', ''),
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(response, other), { maxLength: 20 }), (texts) => {
        for (const text of texts) {
          const fresh = parseResponseText(text);
          expect(parseResponse(text)).toEqual(fresh);
          expect(parseResponse(text)).toEqual(fresh);
        }
      }),
      { numRuns: 300 },
    );
  });
});

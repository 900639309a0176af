/**
 * The shape of `GET /v1/chunks/:id/lines`, shared by the gateway that answers it and the web app
 * that draws highlights from it. Types only, no imports: the web app's bundle reads nothing here.
 */

/**
 * One printed line of a chunk, where extraction found it, in PDF user-space points with the origin
 * at the bottom-left of the page's view box: `x` where the line starts, `y` its baseline, `width`
 * its extent along the line, `height` its font size.
 */
export interface PrintedLine {
  /** 1-based page. */
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * What `GET /v1/chunks/:id/lines` answers. `exact: false` (with no lines) when the chunk's
 * artifacts do not say where its lines were printed (made before lines were carried, or already
 * removed): the viewer then finds the passage by its text.
 */
export interface ChunkLines {
  lines: PrintedLine[];
  exact: boolean;
}

#ifndef LEAMOJI_CFFMPEG_SHIM_H
#define LEAMOJI_CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>

/* Macros Swift cannot import, as functions. */
static inline int cffmpeg_averror(int errnum) { return AVERROR(errnum); }
static inline int cffmpeg_averror_eof(void) { return AVERROR_EOF; }
static inline int cffmpeg_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int cffmpeg_averror_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int cffmpeg_averror_stream_not_found(void) { return AVERROR_STREAM_NOT_FOUND; }
static inline int64_t cffmpeg_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline int cffmpeg_qp2lambda(void) { return FF_QP2LAMBDA; }

/* Fields and calls that moved between FFmpeg releases, behind one name each, so that leamoji
 * builds against FFmpeg 5.1 (Debian 12) and the releases that removed the old forms (7.x). */

/* A decoded frame's duration in its stream's time base (0 when unknown): `duration` since
 * libavutil 57.30.100, `pkt_duration` (deprecated, then removed) before. */
static inline int64_t cffmpeg_frame_duration(const AVFrame *frame) {
#if LIBAVUTIL_VERSION_INT >= AV_VERSION_INT(57, 30, 100)
    return frame->duration;
#else
    return frame->pkt_duration;
#endif
}

/* The stream's display matrix (nine int32, 16.16 fixed point) and its size in bytes, or NULL:
 * from the codec parameters' side data since libavcodec 61 (FFmpeg 7, which removed
 * av_stream_get_side_data), from the stream's own before. */
static inline const uint8_t *cffmpeg_display_matrix(const AVStream *stream, size_t *size) {
#if LIBAVCODEC_VERSION_MAJOR >= 61
    const AVPacketSideData *data = av_packet_side_data_get(
        stream->codecpar->coded_side_data, stream->codecpar->nb_coded_side_data,
        AV_PKT_DATA_DISPLAYMATRIX);
    *size = data ? data->size : 0;
    return data ? data->data : NULL;
#else
    return av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, size);
#endif
}

#endif

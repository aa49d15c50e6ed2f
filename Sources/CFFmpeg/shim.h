#ifndef LEAMOJI_CFFMPEG_SHIM_H
#define LEAMOJI_CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/samplefmt.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavcodec/version.h>
#include <libavformat/version.h>
#include <libswscale/version.h>
#include <libswresample/version.h>
#include <libavutil/version.h>

/* Macros Swift cannot import, as functions. */
static inline int cffmpeg_averror(int errnum) { return AVERROR(errnum); }
static inline int cffmpeg_averror_eof(void) { return AVERROR_EOF; }
static inline int cffmpeg_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int cffmpeg_averror_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int cffmpeg_averror_stream_not_found(void) { return AVERROR_STREAM_NOT_FOUND; }
static inline int64_t cffmpeg_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline int cffmpeg_qp2lambda(void) { return FF_QP2LAMBDA; }

/* The FFmpeg releases leamoji supports: 5.1 (Debian 12: libavcodec 59.37, libavformat 59.27) to
 * 7.1 (Debian 13: libavcodec 61.19, libavformat 61.7), both built and tested in CI. Older
 * headers stop the build here, with the reason, rather than with errors about missing fields. */
#if LIBAVCODEC_VERSION_INT < AV_VERSION_INT(59, 37, 100) || \
    LIBAVFORMAT_VERSION_INT < AV_VERSION_INT(59, 27, 100)
#error "leamoji needs FFmpeg 5.1 or later (libavcodec 59.37, libavformat 59.27): install newer FFmpeg -dev packages"
#endif

/* The library versions these headers describe (what leamoji was built against), for
 * `leamoji --version` next to the versions of the libraries loaded at run time. */
static inline unsigned cffmpeg_built_avformat_version(void) { return LIBAVFORMAT_VERSION_INT; }
static inline unsigned cffmpeg_built_avcodec_version(void) { return LIBAVCODEC_VERSION_INT; }
static inline unsigned cffmpeg_built_swscale_version(void) { return LIBSWSCALE_VERSION_INT; }
static inline unsigned cffmpeg_built_avutil_version(void) { return LIBAVUTIL_VERSION_INT; }
static inline unsigned cffmpeg_built_swresample_version(void) { return LIBSWRESAMPLE_VERSION_INT; }

/* Fields and calls that moved between FFmpeg releases, behind one name each, so that leamoji
 * builds against FFmpeg 5.1 (Debian 12) and the releases that deprecated or removed the old
 * forms (7.x, Debian 13). */

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
 * from the codec parameters' side data with libavcodec 61 (FFmpeg 7), from the stream's own
 * before. FFmpeg 7 still has av_stream_get_side_data but marks it deprecated; FFmpeg 8
 * (libavformat 62) removes it. */
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

/* Audio. FFmpeg 5.1 introduced the AVChannelLayout API (`ch_layout`, `swr_alloc_set_opts2`) and
 * 7.0 removed the old bit-mask fields, so only the new API is used; what may differ is here. */

/* The channel layout of a decoded audio frame, into `*layout` (which the caller uninitialises
 * with av_channel_layout_uninit): the frame's own, or FFmpeg's default layout for its number
 * of channels when the decoder left the order unspecified (raw PCM, some WAV files), so that
 * swresample can build its mixing matrix. Returns 0, or a negative AVERROR. */
static inline int cffmpeg_frame_channel_layout(const AVFrame *frame, AVChannelLayout *layout) {
    if (frame->ch_layout.nb_channels <= 0) return AVERROR(EINVAL);
    if (frame->ch_layout.order == AV_CHANNEL_ORDER_UNSPEC) {
        av_channel_layout_default(layout, frame->ch_layout.nb_channels);
        return 0;
    }
    return av_channel_layout_copy(layout, &frame->ch_layout);
}

/* Whether `a` and `b` are the same layout. */
static inline int cffmpeg_same_channel_layout(const AVChannelLayout *a, const AVChannelLayout *b) {
    return av_channel_layout_compare(a, b) == 0;
}

/* Sets `*context` to a new resampler from `in_layout`/`in_format`/`in_rate` to packed mono float
 * at `out_rate`, with swresample's default mixing matrix normalised so that no output can exceed
 * full scale (`rematrix_maxval` 1, as swresample does by itself for integer output; for float
 * it would sum: stereo's two -3 dB channels to 1.41 times a sound in both). Not yet
 * initialised: swr_init. Returns 0, or a negative AVERROR. FFmpeg 5.1 declares the layouts
 * without `const` (7.x with), though it only reads them, hence the cast. */
static inline int cffmpeg_swr_alloc_mono_float(
    SwrContext **context, const AVChannelLayout *in_layout, int in_format, int in_rate,
    int out_rate) {
    AVChannelLayout mono = AV_CHANNEL_LAYOUT_MONO;
    int status = swr_alloc_set_opts2(context, &mono, AV_SAMPLE_FMT_FLT, out_rate,
                                     (AVChannelLayout *)in_layout,
                                     (enum AVSampleFormat)in_format, in_rate, 0, NULL);
    if (status < 0) return status;
    return av_opt_set_double(*context, "rematrix_maxval", 1.0, 0);
}

/* Converts `frame`'s samples (all of them; NULL: none, which drains what the resampler holds)
 * into at most `out_count` packed floats at `out`. Returns the number of samples written, or a
 * negative AVERROR. The pointer arrays are `uint8_t **` in 5.1 and `* const *` in 7.x. */
static inline int cffmpeg_swr_convert_to_float(
    SwrContext *context, float *out, int out_count, const AVFrame *frame) {
    uint8_t *planes[1] = { (uint8_t *)out };
    if (!frame) return swr_convert(context, planes, out_count, NULL, 0);
    return swr_convert(context, planes, out_count, (const uint8_t **)frame->extended_data,
                       frame->nb_samples);
}

#endif
